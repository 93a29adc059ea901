/**
 * Backups of the files a commit overwrites or deletes: hard links into the journal's backup
 * folder (the very same inode, instantly), or durable copies where linking is impossible.
 */
import type { CheckedOp } from './check-ops.ts';
import { linkOrCopy } from './durable-copy.ts';
import { isRacy, readStamp, sameStamp, type RecordedState, type StatStamp } from './entry-state.ts';
import { backupPath, oldOf, targetPath } from './journal-file.ts';
import { forEachLimit, STOP } from '../../fs/index.ts';
import { reach, type SettleContext } from './settle.ts';
import type { DriftedPath } from './types.ts';

/** What backing up found: drifted paths, and the stamps the pre-rename re-check may trust. */
export interface BackupResult {
  drifted: DriftedPath[];
  /**
   * Per op index, the target's stamp right after its backup (the backup's own, when it is a link
   * to the same inode), kept only when the file's content
   * check was not racy and its stamp was still the checked one right before the link (which moves
   * ctime). An equal stamp at rename time then proves the content is still the checked one
   * without reading it again.
   */
  trusted: Map<number, StatStamp>;
}

/**
 * True when `now` is the checked file itself: the same inode, not a new file that reused its
 * number after the checked one was deleted (that one would differ in size or modification time).
 */
function sameGeneration(now: StatStamp | null, checked: StatStamp): now is StatStamp {
  return now !== null && now.ino === checked.ino && now.dev === checked.dev && now.size === checked.size && now.mtimeNs === checked.mtimeNs;
}

/** Backs up every existing file the commit replaces, checking it is still the file that was checked. */
export async function backUp(
  ctx: SettleContext,
  checked: readonly CheckedOp[],
  step: () => void,
): Promise<BackupResult> {
  const { record, journalDir } = ctx;
  const withBackup = record.ops.filter((op) => op.old?.kind === 'file');
  const result: BackupResult = { drifted: [], trusted: new Map() };
  await forEachLimit(withBackup, ctx.concurrency, async (op) => {
    const old = oldOf(op) as Extract<RecordedState, { kind: 'file' }>;
    const target = targetPath(record, op);
    const backup = backupPath(journalDir, record.transactionId, op);
    const { observed } = checked[op.index]!;
    const checkedStamp = observed.stamp!;
    // Linking moves the file's ctime, so whether anything else did is seen just before it.
    const beforeLink = readStamp(target);
    const made = await linkOrCopy(target, backup, old.mode).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
      throw error;
    });
    if (made === null) {
      result.drifted.push({ relPath: op.relPath, reason: 'it was removed or moved while the commit was starting: review it and commit again.' });
      return STOP;
    }
    // A link is the target's inode itself, so its stamp is the target's as linked; a later swap of
    // the target is caught by the re-check before its rename. A copy is proved by its hash.
    const after = made.linked ? readStamp(backup) : readStamp(target);
    const backupIsIt = made.linked || made.sha256 === old.sha256;
    if (!sameGeneration(after, checkedStamp) || !backupIsIt) {
      result.drifted.push({ relPath: op.relPath, reason: 'it was replaced or changed while the commit was starting: review it and commit again.' });
      return STOP;
    }
    const untouched = beforeLink !== null && sameStamp(beforeLink, checkedStamp);
    if (!isRacy(observed) && untouched && after.size === beforeLink.size && after.mtimeNs === beforeLink.mtimeNs && after.mode === beforeLink.mode) {
      result.trusted.set(op.index, after);
    }
    await reach(ctx, 'backed_up', op.relPath);
    step();
  });
  return result;
}
