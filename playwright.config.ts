// E2E: the real renderer against the real core. Project "web" drives Chromium through
// `bindery serve`; project "electron" runs the same specs in Electron when a binary exists and
// otherwise skips them with the reason. Traces and screenshots are kept for failures.
import os from 'node:os';
import { defineConfig } from '@playwright/test';
import type { HostKind } from './e2e/fixtures.ts';
import { findChromium } from './scripts/chromium.js';

// BINDERY_CHROMIUM, else a system Chromium or Chrome, else Playwright's own (its default, so no path).
// `npm run test:e2e` runs scripts/chromium.js first, which installs Playwright's when there is none.
const browser = findChromium();
const executablePath = browser && browser.source !== 'playwright' ? browser.path : undefined;

export default defineConfig<{ hostKind: HostKind }>({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'e2e/artifacts/test-results',
  // Better-sqlite3 for Electron's ABI, once, where an Electron binary exists.
  globalSetup: './e2e/global-setup.ts',
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
      ...(executablePath ? { executablePath } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'web', use: { browserName: 'chromium', hostKind: 'web' } },
    { name: 'electron', use: { browserName: 'chromium', hostKind: 'electron' } },
  ],
});
