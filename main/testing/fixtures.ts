/** Test fixtures over real things: temp folders and git repositories (the CLI's launchers are in cli-process.ts). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

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
