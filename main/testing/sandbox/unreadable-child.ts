/**
 * Test child, run as an ordinary user (root reads any file): a copied sandbox where a tool left
 * a file it cannot read (chmod 000) and the person made an original file unreadable, beside
 * ordinary edits. Lists the changes, diffs, commits all, then commits the readable paths only;
 * then, in a copy, locks a folder the tool made.
 * Prints what it saw as JSON. Run: node --import tsx unreadable-child.ts [copy_on_write | git_worktree]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../registry/database.ts';
import { SqliteSandboxStore } from '../../registry/sandbox-store.ts';
import { insertPlan } from '../../registry/plans.ts';
import * as journal from '../../sandbox/commit/journal/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-unreadable-'));
const dataDir = path.join(base, 'data');
const original = path.join(base, 'orig');
fs.mkdirSync(dataDir);
fs.mkdirSync(original);
for (const name of ['a.txt', 'secret.txt', 'theirs.txt']) fs.writeFileSync(path.join(original, name), `${name}\n`);
const strategy = process.argv[2] === 'git_worktree' ? 'git_worktree' : 'copy_on_write';
if (strategy === 'git_worktree') {
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', HOME: base };
  for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-qm', 'seed']]) execFileSync('git', args, { cwd: original, env });
}
const db = openDatabase(path.join(dataDir, 'bindery.db'));
const stamp = new Date().toISOString();
insertPlan(db, { id: 'P1', toolId: 'T', toolName: 'tool', projectId: 'P', projectName: 'demo', params: {}, status: 'provisioning', error: null, createdAt: stamp, updatedAt: stamp });
const manager = new SandboxManager({ store: new SqliteSandboxStore(db), dataDir, journal });
const attempt = async (work: () => Promise<unknown>) => work().then((value) => ({ ok: value }), (error: Error & { code?: string }) => ({ error: error.message, code: error.code }));
const result: Record<string, unknown> = { base };
try {
  const sandbox = await manager.getOrCreateSandbox({ planId: 'P1', resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
  fs.writeFileSync(path.join(sandbox.path, 'a.txt'), 'edited\n');
  fs.writeFileSync(path.join(sandbox.path, 'secret.txt'), 'the tool wrote this\n');
  fs.chmodSync(path.join(sandbox.path, 'secret.txt'), 0o000);
  fs.writeFileSync(path.join(sandbox.path, 'theirs.txt'), 'tool edit\n');
  fs.chmodSync(path.join(original, 'theirs.txt'), 0o000);
  result.changes = await attempt(async () => (await manager.changes(sandbox.id)).changes.map((c) => ({ path: c.path, kind: c.kind, drift: c.drift, unreadable: c.unreadable })));
  result.diffSecret = await attempt(() => manager.diff(sandbox.id, 'secret.txt'));
  result.diffA = await attempt(async () => (await manager.diff(sandbox.id, 'a.txt')).kind);
  result.commitAll = await attempt(() => manager.commit(sandbox.id));
  result.commitA = await attempt(async () => (await manager.commit(sandbox.id, { paths: ['a.txt'] })).kind);
  result.originalA = fs.readFileSync(path.join(original, 'a.txt'), 'utf8');
  result.discard = await attempt(async () => (await manager.discard(sandbox.id)).kind);
  if (strategy === 'copy_on_write') {
    // A folder that cannot be listed hides its changes: unknown, which discard does not take for clean.
    fs.mkdirSync(path.join(sandbox.path, 'locked'));
    fs.writeFileSync(path.join(sandbox.path, 'locked', 'work.txt'), 'work\n');
    fs.chmodSync(path.join(sandbox.path, 'locked'), 0o000);
    result.lockedChanges = await attempt(() => manager.changes(sandbox.id));
    result.lockedDiscard = await attempt(async () => (await manager.discard(sandbox.id, { yes: true })).kind);
  }
} catch (error) {
  result.error = (error as Error).stack;
}
process.stdout.write(JSON.stringify(result));
