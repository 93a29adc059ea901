/**
 * Test child for special-files.test.ts, run in its own process so a read that blocks on a FIFO
 * shows as a timeout instead of hanging the test runner. A tool replaces a file of the sandbox by a
 * FIFO, makes a FIFO and a unix socket of its own (and, in a worktree, one in an ignored folder and
 * a commit of its own), edits a file; then the change list, a diff, a commit of all, a commit of
 * the edit alone and a commit that keeps the original are tried; then a discard and a restore.
 * Prints what it saw as JSON.
 * Run: node --import tsx special-files-child.ts [copy_on_write | git_worktree] [moved-head]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../registry/database.ts';
import { SqliteSandboxStore } from '../../registry/sandbox-store.ts';
import { insertPlan } from '../../registry/plans.ts';
import * as journal from '../../sandbox/commit/journal/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-special-')));
const dataDir = path.join(base, 'data');
const original = path.join(base, 'orig');
fs.mkdirSync(dataDir);
fs.mkdirSync(path.join(original, 'sub'), { recursive: true });
const seed: Record<string, string> = { 'keep.txt': 'keep\n', 'replaced.txt': 'the user wrote this\n', 'edit.txt': 'before\n', 'sub/inner.txt': 'inner\n', '.gitignore': 'ignored/\n' };
for (const [rel, text] of Object.entries(seed)) fs.writeFileSync(path.join(original, rel), text);
const strategy = process.argv[2] === 'git_worktree' ? 'git_worktree' : 'copy_on_write';
const movedHead = process.argv[3] === 'moved-head';
const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', HOME: base };
const gitIn = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env });
if (strategy === 'git_worktree') for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-qm', 'seed']]) gitIn(original, ...args);
const db = openDatabase(path.join(dataDir, 'bindery.db'));
const stamp = new Date().toISOString();
insertPlan(db, { id: 'P1', toolId: 'T', toolName: 'tool', projectId: 'P', projectName: 'demo', params: {}, status: 'provisioning', error: null, createdAt: stamp, updatedAt: stamp });
const manager = new SandboxManager({ store: new SqliteSandboxStore(db), dataDir, journal });
const attempt = async (work: () => Promise<unknown>) => work().then((value) => ({ ok: value }), (error: Error & { code?: string }) => ({ error: error.message, code: error.code }));
const result: Record<string, unknown> = { base };
/** An original file's text, or what became of it. */
const originalText = (rel: string) => (fs.existsSync(path.join(original, rel)) ? fs.readFileSync(path.join(original, rel), 'utf8') : '(deleted)');
const server = net.createServer();
try {
  const sandbox = await manager.getOrCreateSandbox({ planId: 'P1', resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
  const at = (rel: string) => path.join(sandbox.path, rel);
  if (movedHead) {
    // The tool commits in the sandbox: its HEAD is no longer the base.
    fs.writeFileSync(at('committed.txt'), 'the tool committed this\n');
    gitIn(sandbox.path, 'add', 'committed.txt');
    gitIn(sandbox.path, 'commit', '-qm', 'tool');
  }
  fs.writeFileSync(at('edit.txt'), 'after\n');
  fs.rmSync(at('replaced.txt'));
  execFileSync('mkfifo', [at('replaced.txt'), at('sub/pipe')]);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(at('sock'), resolve));
  if (strategy === 'git_worktree') {
    fs.mkdirSync(at('ignored'));
    execFileSync('mkfifo', [at('ignored/pipe')]);
  }
  const listed = await attempt(async () => (await manager.changes(sandbox.id)).changes);
  result.changes = 'ok' in listed ? { ok: (listed.ok as Array<Record<string, unknown>>).map(({ path: p, kind, oldType, newType, drift, unreadable, special }) => ({ path: p, kind, oldType, newType, drift, unreadable, special })) } : listed;
  result.diffPipe = await attempt(() => manager.diff(sandbox.id, 'sub/pipe'));
  result.diffEdit = await attempt(async () => (await manager.diff(sandbox.id, 'edit.txt')).kind);
  result.commitAll = await attempt(() => manager.commit(sandbox.id));
  result.originalAfterRefusal = originalText('replaced.txt');
  result.commitEdit = await attempt(async () => (await manager.commit(sandbox.id, { paths: ['edit.txt'] })).kind);
  result.originalEdit = originalText('edit.txt');
  result.commitOurs = await attempt(async () => (await manager.commit(sandbox.id, { paths: ['replaced.txt'], resolutions: { 'replaced.txt': 'ours' } })).kind);
  result.originalReplaced = originalText('replaced.txt');
  result.originalHasNoSpecials = !['sub/pipe', 'sock'].some((rel) => fs.existsSync(path.join(original, rel)));
  result.discard = await attempt(async () => (await manager.discard(sandbox.id)).kind);
  const discarded = await manager.discard(sandbox.id, { yes: true });
  result.discardYes = discarded.kind;
  // A special file cannot be kept in the trash: the restored sandbox holds the base there, never nothing (which would read as a deletion).
  if (discarded.kind === 'discarded' && discarded.trashId) {
    const restored = await manager.restoreTrash(discarded.trashId);
    result.afterRestore = (await manager.changes(restored.id)).changes.map((c) => `${c.kind} ${c.path}`);
  }
} catch (error) {
  result.error = (error as Error).stack;
} finally {
  server.close();
}
process.stdout.write(JSON.stringify(result));
