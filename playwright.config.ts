// E2E: the real renderer against the real core. Project "web" drives Chromium through
// `bindery serve`; project "electron" runs the same specs in Electron when a binary exists and
// otherwise skips them with the reason. Traces and screenshots are kept for failures.
import fs from 'node:fs';
import os from 'node:os';
import { defineConfig } from '@playwright/test';
import type { HostKind } from './e2e/fixtures.ts';

const SYSTEM_CHROMIUM = process.env.BINDERY_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig<{ hostKind: HostKind }>({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'e2e/artifacts/test-results',
  // Each test starts a server and runs the CLI as separate processes: generous on busy machines.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: Math.max(1, Math.min(4, os.availableParallelism())),
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'e2e/artifacts/report' }]],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    video: 'off',
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    launchOptions: {
      ...(fs.existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'web', use: { browserName: 'chromium', hostKind: 'web' } },
    { name: 'electron', use: { browserName: 'chromium', hostKind: 'electron' } },
  ],
});
