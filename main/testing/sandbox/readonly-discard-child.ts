/**
 * Test child, run as an ordinary user (root ignores permission bits): provisions a read_only
 * copy_on_write sandbox, changes a file in it (a violation a tool can make: chmod u+w, write),
 * discards it with --yes, then restores it. Prints what it saw (or the error) as JSON.
 * Run: node --import tsx readonly-discard-child.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../registry/database.ts';
import { SqliteSandboxStore } from '../../registry/sandbox-store.ts';
import { insertPlan } from '../../registry/plans.ts';
import * as journal from '../../sandbox/commit/journal/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-ro-'));
const dataDir = path.join(base, 'data');
const original = path.join(base, 'orig');
fs.mkdirSync(dataDir);
fs.mkdirSync(original);
fs.writeFileSync(path.join(original, 'a.txt'), 'a\n');
const db = openDatabase(path.join(dataDir, 'bindery.db'));
const stamp = new Date().toISOString();
insertPlan(db, { id: 'P1', toolId: 'T', toolName: 'tool', projectId: 'P', projectName: 'demo', params: {}, status: 'provisioning', error: null, createdAt: stamp, updatedAt: stamp });
const manager = new SandboxManager({ store: new SqliteSandboxStore(db), dataDir, journal });
let result: object;
try {
  const sandbox = await manager.getOrCreateSandbox({ planId: 'P1', resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write', access: 'read_only' });
  fs.chmodSync(path.join(sandbox.path, 'a.txt'), 0o644);
  fs.writeFileSync(path.join(sandbox.path, 'a.txt'), 'changed by a tool\n');
  const outcome = await manager.discard(sandbox.id, { yes: true });
  const discarded = { outcome, sandboxLeft: fs.existsSync(sandbox.path), trash: manager.listTrash().length, trashFolders: fs.readdirSync(manager.layout.trashDir).length };
  await manager.restoreTrash((outcome as { trashId: string }).trashId);
  const restored = {
    content: fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8'),
    rootWritable: (fs.statSync(sandbox.path).mode & 0o200) !== 0,
    changes: (await manager.changes(sandbox.id)).changes.map((change) => `${change.kind} ${change.path}`),
  };
  result = { discarded, restored };
} catch (error) {
  result = { error: (error as Error).message };
}
process.stdout.write(JSON.stringify({ base, ...result }));
