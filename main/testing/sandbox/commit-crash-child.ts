/**
 * Test child: commits one sandbox through a SandboxManager and SIGKILLs itself at a journal fault
 * point (with `undo`: commits, then undoes that commit and dies at the point during the undo), so
 * the sandbox tests can prove recovery at the next start finishes or undoes what was interrupted.
 * Run: node --import tsx commit-crash-child.ts <dataDir> <sandboxId> <faultPoint> [undo]
 */
import type { FaultPoint, JournalHooks } from '../../sandbox/index.ts';
import { hookedManager } from './hooked-manager.ts';

const [dataDir, sandboxId, crashPoint, mode] = process.argv.slice(2) as [string, string, FaultPoint, 'undo' | undefined];
const crash: JournalHooks = {
  at(point) {
    if (point === crashPoint) process.kill(process.pid, 'SIGKILL');
  },
};
const manager = hookedManager(dataDir, { apply: mode === 'undo' ? undefined : crash, undo: crash });
await manager.commit(sandboxId);
if (mode === 'undo') await manager.undo(sandboxId);
process.stdout.write('finished without crashing\n');
