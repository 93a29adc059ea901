/**
 * Undo of a finished commit from its backups ("undo the last commit"). Refused, with nothing
 * changed, when any file it wrote or deleted has changed since.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConflictError, ValidationError } from '../../../../shared/errors.ts';
import { diskPath } from './disk-path.ts';
import { describeState, observe, sameState } from './entry-state.ts';
import { readJournal, saveJournal, targetPath, type JournalRecord } from './journal-file.ts';
import { whileActive } from './ownership.ts';
import { DEFAULT_CONCURRENCY, forEachLimit } from '../../fs/index.ts';
import { afterSettlingWaiting } from './recover.ts';
import { absoluteIn, realTargetRoot } from './safe-path.ts';
import { rollBack, type SettleContext } from './settle.ts';
import type { DriftedPath, UndoTransactionInput, UndoTransactionResult } from './types.ts';

/** Folders the commit removed where something else now sits, so undo cannot make them again. */
function blockedFolders(record: JournalRecord): DriftedPath[] {
  return (record.emptiedDirs ?? []).flatMap(({ rel }) => {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(diskPath(absoluteIn(record.targetRoot, rel)), { throwIfNoEntry: false });
    } catch {
      return []; // a folder above it is blocked: reported for that folder, or its files stay as they are
    }
    if (!stat || stat.isDirectory()) return [];
    return [{ relPath: rel, reason: 'the commit removed this folder and something else now has its name: move that aside, then undo again.' }];
  });
}

/** Restores every file a committed transaction changed to its version before the commit. */
export async function undoTransaction(input: UndoTransactionInput): Promise<UndoTransactionResult> {
  const rootReal = await realTargetRoot(input.targetRoot);
  return afterSettlingWaiting(path.resolve(input.journalDir), rootReal, path.resolve(input.targetRoot), input.onRecovered, () => undoLocked(input, rootReal));
}

async function undoLocked(input: UndoTransactionInput, rootReal: string): Promise<UndoTransactionResult> {
  const record = await readJournal(input.journalDir, input.transactionId);
  if (record.targetRoot !== rootReal) {
    throw new ValidationError(
      `Commit ${input.transactionId} was made to ${record.targetRoot}, not ${rootReal}: undo it against the folder it changed.`,
    );
  }
  if (record.state !== 'committed') {
    const why = record.state === 'undone' ? 'it was already undone' : `it is not a finished commit (state ${record.state})`;
    throw new ConflictError(`Commit ${input.transactionId} cannot be undone: ${why}.`, { state: record.state });
  }
  const ctx: SettleContext = { journalDir: input.journalDir, record, hooks: input.hooks, concurrency: DEFAULT_CONCURRENCY };
  const drifted: DriftedPath[] = [];
  await forEachLimit(record.ops, ctx.concurrency, async (op) => {
    const current = (await observe(targetPath(record, op))).state;
    if (op.next && !sameState(current, op.next)) {
      drifted.push({
        relPath: op.relPath,
        reason: `it changed after the commit (the commit left ${describeState(op.next)}, now ${describeState(current)}): undo would lose that change.`,
      });
    }
  });
  drifted.push(...blockedFolders(record));
  if (drifted.length > 0) return { kind: 'drifted', paths: drifted };
  return whileActive(record.transactionId, async () => {
    await saveJournal(ctx.journalDir, record, 'undoing');
    const untouched = new Set((await rollBack(ctx, 'undone', true)).map((entry) => entry.relPath));
    return { kind: 'undone', restored: record.ops.map((op) => op.relPath).filter((relPath) => !untouched.has(relPath)) };
  });
}
