/**
 * Test child: commits one sandbox through a SandboxManager and SIGKILLs itself at a journal fault
 * point, so the sandbox tests can prove recovery at the next start finishes or undoes the commit.
 * Run: node --import tsx commit-crash-child.ts <dataDir> <sandboxId> <faultPoint>
 */
import path from 'node:path';
import { openDatabase } from '../registry/database.ts';
import * as journal from './journal/index.ts';
import type { FaultPoint } from './journal/index.ts';
import { SandboxManager } from './sandbox-manager.ts';

const [dataDir, sandboxId, crashPoint] = process.argv.slice(2) as [string, string, FaultPoint];
const db = openDatabase(path.join(dataDir, 'bindery.db'));
const manager = new SandboxManager({
  db,
  dataDir,
  journal: {
    ...journal,
    applyTransaction: (input) =>
      journal.applyTransaction({
        ...input,
        hooks: {
          at(point) {
            if (point === crashPoint) process.kill(process.pid, 'SIGKILL');
          },
        },
      }),
  },
});
await manager.commit(sandboxId);
process.stdout.write('committed without crashing\n');
