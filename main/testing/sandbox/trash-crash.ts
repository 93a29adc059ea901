/**
 * Discards and restores killed or paused part way, for the recovery tests: trash-crash-child.ts
 * driven at a chosen fs call, and sandboxes with work in them to discard.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../fixtures.ts';
import { newManager } from './harness.ts';

const child = path.join(import.meta.dirname, 'trash-crash-child.ts');

/** Runs the child, which must die by SIGKILL at the nth fs.<hook> call on a path ending with `match`. */
export function killedAt(dataDir: string, action: 'discard' | 'restore', id: string, hook: string, match = '', nth = 1, sandboxesRoot?: string): void {
  const args = [child, dataDir, action, id, hook, match, String(nth), 'kill', ...(sandboxesRoot ? [sandboxesRoot] : [])];
  const run = spawnSync(process.execPath, ['--import', 'tsx', ...args], { encoding: 'utf8' });
  expect(run.signal, run.stderr + run.stdout).toBe('SIGKILL');
}

/** Starts the child and resolves once it paused at its hook; `finish` lets it go on and resolves with what it printed. */
export async function pausedAt(dataDir: string, action: 'discard' | 'restore', id: string, hook: string, match: string): Promise<{ finish: () => Promise<{ ok?: unknown; error?: string }> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, dataDir, action, id, hook, match, '1', 'pause'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (data) => (out += data));
  proc.stderr.on('data', (data) => (out += data));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  while (!fs.existsSync(path.join(dataDir, 'paused'))) {
    if (proc.exitCode !== null) throw new Error(`The child did not pause: ${out}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    finish: async () => {
      fs.writeFileSync(path.join(dataDir, 'go'), '');
      await exited;
      return JSON.parse(out) as { ok?: unknown; error?: string };
    },
  };
}

/** A copied sandbox with work in it. */
export async function copySandboxWithWork() {
  const ctx = newManager();
  const original = tempDir('bindery-orig-');
  writeFiles(original, { 'a.txt': 'a\n' });
  const sandbox = await ctx.manager.getOrCreateSandbox({ planId: ctx.plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
  writeFiles(sandbox.path, { 'work.txt': 'hours of work\n' });
  return { ...ctx, sandbox };
}

/** A worktree sandbox of a fresh repository, with `files` written into it. */
export async function worktreeWithWork(files: Record<string, string>) {
  const ctx = newManager();
  const repo = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'd/c.txt': 'c\n' });
  const request = { planId: ctx.plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' as const };
  const sandbox = await ctx.manager.getOrCreateSandbox(request);
  writeFiles(sandbox.path, files);
  return { ...ctx, repo, request, sandbox };
}
