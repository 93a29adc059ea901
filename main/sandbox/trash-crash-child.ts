/**
 * Test child: discards a sandbox (or restores a trash entry) through a SandboxManager and SIGKILLs
 * itself at one file operation: the first `rename` whose target ends with `suffix`, or the first
 * `copyFile`, so the tests can prove recovery at the next start loses nothing and finishes the job.
 * Run: node --import tsx trash-crash-child.ts <dataDir> discard|restore <sandboxId|trashId> rename|copyFile [suffix]
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../registry/database.ts';
import * as journal from './journal/index.ts';
import { SandboxManager } from './sandbox-manager.ts';

const [dataDir, action, id, hook, suffix] = process.argv.slice(2) as [string, 'discard' | 'restore', string, 'rename' | 'copyFile', string | undefined];
const patched = fs as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
const original = patched[hook]!;
patched[hook] = (from: unknown, to: unknown, ...rest: unknown[]) => {
  if (hook === 'copyFile' || String(to).endsWith(suffix as string)) process.kill(process.pid, 'SIGKILL');
  return original(from, to, ...rest);
};
const manager = new SandboxManager({ db: openDatabase(path.join(dataDir, 'bindery.db')), dataDir, journal });
if (action === 'discard') await manager.rollback(id, { yes: true, force: true });
else await manager.restoreTrash(id);
process.stdout.write('finished without crashing\n');
