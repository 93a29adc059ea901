/**
 * Test helpers for the sandbox engine: a manager over a temp data directory with a plan row, and a
 * fingerprint of a repository's `.git`. Sandbox tests reach the registry only through here.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ulid } from 'ulid';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../registry/database.ts';
import { SqliteSandboxStore } from '../../registry/sandbox-store.ts';
import { insertPlan } from '../../registry/plans.ts';
import { git, tempDir, writeFiles } from '../fixtures.ts';
import * as journal from '../../sandbox/commit/journal/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';

export { listActivity } from '../../registry/activity.ts';
export { planCommits } from '../../registry/sandbox-commits.ts';

/** A registry over `dataDir` for the engine: its database, the engine's store on it, and a helper that registers plans. */
export function openRegistry(dataDir: string): { db: Database; store: SqliteSandboxStore; plan: () => string } {
  const db = openDatabase(path.join(dataDir, 'bindery.db'));
  const plan = (): string => {
    const id = ulid();
    const stamp = new Date().toISOString();
    insertPlan(db, { id, toolId: 'T', toolName: 'tool', projectId: 'P', projectName: 'demo', params: {}, status: 'provisioning', error: null, createdAt: stamp, updatedAt: stamp });
    return id;
  };
  return { db, store: new SqliteSandboxStore(db), plan };
}

/** A manager over a fresh data directory (or `dataDir`), with its registry (see openRegistry). */
export function newManager(
  options: { trashDays?: number; now?: () => Date; dataDir?: string } = {},
): { manager: SandboxManager; dataDir: string; plan: () => string; db: Database; store: SqliteSandboxStore } {
  const dataDir = options.dataDir ?? tempDir('bindery-data-');
  const { db, store, plan } = openRegistry(dataDir);
  const manager = new SandboxManager({ store, dataDir, journal, trashDays: options.trashDays, now: options.now });
  return { manager, dataDir, plan, db, store };
}

/** Everything of a repository's `.git` the user cares about: refs, HEAD, index, config, stash, worktrees. */
export function gitFingerprint(repo: string, options: { skipBinderyRefs?: boolean } = {}): Record<string, string> {
  const dotGit = path.join(repo, '.git');
  const hash = (file: string): string => (fs.existsSync(file) ? createHash('sha256').update(fs.readFileSync(file)).digest('hex') : '(none)');
  const refs = git(repo, 'for-each-ref', '--format=%(refname) %(objectname)')
    .split('\n')
    .filter((line) => !(options.skipBinderyRefs && line.startsWith('refs/bindery/')))
    .join('\n');
  return {
    refs,
    HEAD: hash(path.join(dotGit, 'HEAD')),
    index: hash(path.join(dotGit, 'index')),
    config: hash(path.join(dotGit, 'config')),
    packedRefs: hash(path.join(dotGit, 'packed-refs')),
    stash: git(repo, 'stash', 'list'),
    stashLog: hash(path.join(dotGit, 'logs', 'refs', 'stash')),
    headLog: hash(path.join(dotGit, 'logs', 'HEAD')),
    ...(options.skipBinderyRefs ? {} : { worktrees: git(repo, 'worktree', 'list', '--porcelain') }),
  };
}

/** True when a path exists (lstat, so dangling symlinks count). */
export function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** A plain folder (not a repository) holding `files`, to be a sandbox's original. */
export function plainDir(files: Record<string, string> = { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' }): string {
  const dir = tempDir('bindery-orig-');
  writeFiles(dir, files);
  return dir;
}

/** The text of `rel` under `root`. */
export function readText(root: string, rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

/** What `promise` rejected with, or undefined when it resolved. */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}
