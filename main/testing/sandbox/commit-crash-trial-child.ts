/**
 * The process the engine's crash trials kill (commit-crash-trial.ts): commits or undoes one sandbox
 * through a SandboxManager and SIGKILLs itself at the BINDERY_CRASH_AT-th hit of journal point
 * BINDERY_CRASH_POINT, or is killed from outside after it prints "ready".
 * A partial commit takes the hunks and lines in BINDERY_TRIAL_SELECTIONS (JSON, by path).
 * Run: node --import tsx commit-crash-trial-child.ts <dataDir> <sandboxId> commit|undo|partial
 */
import type { FaultPoint, JournalHooks } from '../../sandbox/index.ts';
import { hookedManager } from './hooked-manager.ts';
import type { PatchSelection } from '../../../shared/patch-selection.ts';

const [dataDir, sandboxId, command] = process.argv.slice(2) as [string, string, 'commit' | 'undo' | 'partial'];
const crashPoint = process.env.BINDERY_CRASH_POINT as FaultPoint | undefined;
const crashAt = Number(process.env.BINDERY_CRASH_AT ?? '1');
let hits = 0;
const hooks: JournalHooks = {
  at(point) {
    if (point === crashPoint && ++hits === crashAt) process.kill(process.pid, 'SIGKILL');
  },
};
const manager = hookedManager(dataDir, { apply: hooks, undo: hooks });
process.stdout.write('ready\n');
if (command === 'commit') await manager.commit(sandboxId);
else if (command === 'partial') await manager.commit(sandboxId, { selections: JSON.parse(process.env.BINDERY_TRIAL_SELECTIONS ?? '{}') as Record<string, PatchSelection> });
else await manager.undo(sandboxId);
process.stdout.write('done\n');
