/**
 * The process the crash trials kill: runs one commit, recovery or undo of a crash scenario and
 * SIGKILLs itself at an injected fault point (BINDERY_CRASH_POINT, its BINDERY_CRASH_AT-th hit),
 * or is killed from outside after it prints "ready". BINDERY_DRIFT_AT makes it edit a target
 * between the check and the rename, as a person would. Run: node --import tsx crash-child.ts ...
 */
import fs from 'node:fs';
import path from 'node:path';
import { applyTransaction, recoverTransactions, undoTransaction } from '../index.ts';
import type { Scenario } from './crash-scenario.ts';
import type { FaultPoint, JournalHooks } from '../types.ts';

const [command, scenarioFile, targetDir, journalDir, transactionId] = process.argv.slice(2);
const crashPoint = process.env.BINDERY_CRASH_POINT as FaultPoint | undefined;
const crashAt = Number(process.env.BINDERY_CRASH_AT ?? '1');
const driftAt = Number(process.env.BINDERY_DRIFT_AT ?? '0');
const scenario = JSON.parse(fs.readFileSync(scenarioFile!, 'utf8')) as Scenario;
const oldKinds = new Map(scenario.paths.map((entry) => [entry.relPath, entry.old.kind]));
const hits = new Map<FaultPoint, number>();

const hooks: JournalHooks = {
  at(point, relPath) {
    const count = (hits.get(point) ?? 0) + 1;
    hits.set(point, count);
    if (point === 'before_replace' && driftAt > 0 && count >= driftAt && relPath && oldKinds.get(relPath) === 'file') {
      fs.writeFileSync(path.join(targetDir!, relPath), 'user edit\n');
      process.stdout.write(`drift ${JSON.stringify(relPath)}\n`);
      oldKinds.clear();
    }
    if (point === crashPoint && count === crashAt) process.kill(process.pid, 'SIGKILL');
  },
};

process.stdout.write('ready\n');
const result =
  command === 'apply'
    ? await applyTransaction({ journalDir: journalDir!, targetRoot: targetDir!, ops: scenario.ops, removeDirs: scenario.removeDirs, hooks })
    : command === 'undo'
      ? await undoTransaction({ journalDir: journalDir!, targetRoot: targetDir!, transactionId: transactionId!, hooks })
      : await recoverTransactions(journalDir!, { hooks });
process.stdout.write(`result ${JSON.stringify(result)}\n`);
