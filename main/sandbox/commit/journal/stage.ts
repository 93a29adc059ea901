/**
 * Staging a commit: the folders its writes need are made, and every new version is written to a
 * temp file beside its target and flushed, before the commit point (see apply.ts).
 */
import fs from 'node:fs';
import { CancelledError, UnsafePathError } from '../../../../shared/errors.ts';
import { forEachLimit } from '../../fs/index.ts';
import { sourceChanged, type CheckedOp, type SourceInfo } from './check-ops.ts';
import { diskPath, symlinkExact } from './disk-path.ts';
import { cloneHintFor, settleCopy, writeCopy, type Vouch } from './durable-copy.ts';
import { sameStamp, stampOf } from './entry-state.ts';
import { fileIdOf, folderOf, stagedPath, type FileId, type JournalOp, type JournalRecord } from './journal-file.ts';
import { absoluteIn, type ResolvedTarget } from './safe-path.ts';
import { reach, type SettleContext } from './settle.ts';
import type { TransactionOp } from './types.ts';

/** The folders the writes need that are missing, parents first. */
export function createdDirsOf(ops: readonly TransactionOp[], targets: readonly ResolvedTarget[]): string[] {
  const dirs = new Set<string>();
  targets.forEach((target, i) => {
    if (ops[i]!.kind === 'write') for (const dir of target.missingDirs) dirs.add(dir);
  });
  return [...dirs].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Creates the missing parent folders (recorded in the journal already, so recovery removes them
 * if they are empty). From then on the record names only the folders made here: one someone else
 * made meanwhile is theirs, and no rollback or undo removes it.
 */
export async function createDirs(ctx: SettleContext): Promise<void> {
  const made: string[] = [];
  try {
    for (const dir of ctx.record.createdDirs) {
      const absolute = absoluteIn(ctx.record.targetRoot, dir);
      try {
        fs.mkdirSync(diskPath(absolute));
        made.push(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (!fs.lstatSync(diskPath(absolute)).isDirectory()) {
          throw new UnsafePathError(`${absolute} appeared as a non-folder while the commit was starting: nothing was changed; commit again.`);
        }
      }
    }
  } finally {
    ctx.record.createdDirs = made;
    // The folders the ops land in that did not exist at the check exist now: their identities too.
    Object.assign((ctx.record.folderIds ??= {}), folderIdsOf(ctx.record));
  }
}

/** The identity of each existing folder the ops land in, by `dirRel`; one known already is kept. */
export function folderIdsOf(record: JournalRecord): Record<string, FileId> {
  const ids: Record<string, FileId> = {};
  for (const op of record.ops) {
    if (op.dirRel in ids || record.folderIds?.[op.dirRel]) continue;
    const id = fileIdOf(folderOf(record, op));
    if (id) ids[op.dirRel] = id;
  }
  return ids;
}

/**
 * Writes every new version to its temp file beside the target, then makes them durable: all are
 * written before any is flushed, so the filesystem writes them out together (see writeCopy). A
 * copy (or clone) whose own hash is not the content the caller reviewed refuses the whole commit:
 * the sandbox changed after the review, and what it holds now was never looked at.
 */
export async function stage(ctx: SettleContext, checked: readonly CheckedOp[], signal: AbortSignal | undefined, step: () => void): Promise<void> {
  const { record } = ctx;
  const clones = cloneHintFor(record.targetRoot);
  const changed: string[] = [];
  await forEachLimit(writesOf(record), ctx.concurrency, async (op) => {
    throwIfAborted(signal);
    const { source, op: asked } = checked[op.index]! as CheckedOp & { source: SourceInfo };
    const temp = stagedPath(record, op);
    if (source.kind === 'symlink') {
      symlinkExact(source.target, temp);
      op.next = { kind: 'symlink', target: source.target };
    } else {
      const sha256 = await writeCopy(source.path, temp, source.mode, vouchFor(source), clones);
      const reviewed = asked.kind === 'write' ? asked.sourceContent?.sha256 : undefined;
      if (reviewed !== undefined && sha256 !== reviewed) changed.push(op.relPath);
      op.next = { kind: 'file', sha256, mode: source.mode };
    }
  });
  // Before the commit point: the rollback removes every staged file and nothing in the target changed.
  if (changed.length > 0) throw sourceChanged(changed.sort());
  // Symlinks need no flush of their own: their folders' flush at the commit point covers them.
  await forEachLimit(writesOf(record), ctx.concurrency, async (op) => {
    throwIfAborted(signal);
    if (op.next?.kind === 'file') await settleCopy(stagedPath(record, op), op.next.mode);
    // Recorded before the commit point: a rollback then tells this commit's files from anyone else's.
    op.staged = fileIdOf(stagedPath(record, op)) ?? undefined;
    await reach(ctx, 'staged', op.relPath);
    step();
  });
  for (const op of record.ops) if (op.kind === 'delete') op.next = { kind: 'absent' };
  throwIfAborted(signal);
}

/** The record's write ops. */
export function writesOf(record: JournalRecord): JournalOp[] {
  return record.ops.filter((op) => op.kind === 'write');
}

/**
 * The caller's hash of a source holds for its copy when the stamp of the file copied (taken through
 * the descriptor it was read from, so it is that very file) is still the one that proved the hash
 * at check time: nothing changed it before or during the copy.
 */
function vouchFor(source: Extract<SourceInfo, { kind: 'file' }>): Vouch | undefined {
  const { known } = source;
  if (!known) return undefined;
  return (copiedFrom) => (sameStamp(stampOf(copiedFrom), known.stamp) ? known.sha256 : null);
}

/** Refuses to go on once the commit is cancelled: only before any file is replaced. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError('Commit cancelled before any file was replaced: nothing was changed.');
}
