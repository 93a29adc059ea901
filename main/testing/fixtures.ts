/** Test fixtures over real things: temp folders, git repositories, a CLI runner. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { main } from '../cli/main.ts';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory removed after the test (realpath, so comparisons with resolved paths hold). */
export function tempDir(prefix = 'bindery-test-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Environment that gives git an identity without touching global config. */
export const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bindery Test',
  GIT_AUTHOR_EMAIL: 'test@bindery.invalid',
  GIT_COMMITTER_NAME: 'Bindery Test',
  GIT_COMMITTER_EMAIL: 'test@bindery.invalid',
};

/** Runs git with argument arrays in `cwd`. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });
}

/** A git repository with the given files committed. */
export function gitRepo(files: Record<string, string> = { 'README.md': '# demo\n' }): string {
  const dir = tempDir('bindery-repo-');
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/** Writes files (relative paths, parents created). */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** The outcome of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json<T = unknown>(): T;
}

/** Runs the real CLI in-process against `dataDir`. */
export async function runCli(dataDir: string, args: string[], stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(
    ['--data-dir', dataDir, ...args],
    { out: (text) => (stdout += text), err: (text) => (stderr += text) },
    async () => stdin,
  );
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}
