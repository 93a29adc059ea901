/**
 * One file's change in one run of the tool (the review's run scope, issue 23): the file at the
 * run's start checkpoint against the file at its end, read for that path only. A copy's start
 * checkpoint keeps only what differed from the base then; for another file the base is the start.
 */
import fs from 'node:fs/promises';
import type { FileDiffView, SandboxInfo } from '../../../shared/dto.ts';
import { NotFoundError } from '../../../shared/errors.ts';
import { checkpointSide, displayPath, inRoot, TEXT_LIMIT, type CheckpointSide } from '../../sandbox/index.ts';
import { checkpointsGone, type RunPair } from '../review-state-service.ts';
import { dataUrl, fileDiffView, FULL_TEXT_LIMIT, IMAGE_LIMIT, imageType } from './file-diff-view.ts';

/** The diff view of `rel` between a run's start and end checkpoints in `sandbox`. */
export async function runFileDiff(sandbox: SandboxInfo, pair: RunPair, rel: string, tempDir: string, full = false): Promise<FileDiffView> {
  const mime = imageType(rel);
  const limit = mime ? IMAGE_LIMIT : full ? FULL_TEXT_LIMIT : TEXT_LIMIT;
  const [before, after] = await Promise.all([checkpointSide(sandbox, pair.start, rel, tempDir, limit), checkpointSide(sandbox, pair.end, rel, tempDir, limit)]).catch((error: unknown) =>
    checkpointsGone(sandbox, error),
  );
  if (!before && !after) {
    throw new NotFoundError(`${displayPath(rel)} did not change in that run of the tool: choose a file of the run's list.`, { path: rel });
  }
  const old = before && before.data === null && pair.start.kind === 'manifest' && before.size <= limit ? { ...before, data: await baseContent(sandbox, rel, tempDir, full) } : before;
  const same = old && after && old.mode === after.mode && ((old.id !== undefined && old.id === after.id) || (old.data !== null && after.data !== null && old.data.equals(after.data)));
  if (same) throw new NotFoundError(`${displayPath(rel)} did not change in that run of the tool: choose a file of the run's list.`, { path: rel });
  const binary = [old?.data, after?.data].some((data) => data != null && data.subarray(0, 8000).includes(0));
  const view: FileDiffView = {
    sandboxId: sandbox.id,
    oldPath: old ? rel : null,
    newPath: after ? rel : null,
    status: !old ? 'added' : !after ? 'deleted' : typeOf(old) !== typeOf(after) ? 'type_changed' : 'modified',
    binary,
    oldSize: old?.size ?? null,
    newSize: after?.size ?? null,
    oldText: null,
    newText: null,
    oldImageUrl: null,
    newImageUrl: null,
    tooLarge: false,
    additions: null,
    deletions: null,
    oldMode: old?.mode ?? null,
    newMode: after?.mode ?? null,
    oldType: old ? typeOf(old) : null,
    newType: after ? typeOf(after) : null,
    against: 'base',
    drift: 'clean',
    driftReason: null,
  };
  if (mime) return { ...view, oldImageUrl: dataUrl(mime, old?.data ?? null), newImageUrl: dataUrl(mime, after?.data ?? null) };
  if (binary) return view;
  if ((old && old.data === null) || (after && after.data === null)) return { ...view, tooLarge: true };
  return { ...view, oldText: old?.data?.toString('utf8') ?? null, newText: after?.data?.toString('utf8') ?? null };
}

function typeOf(side: CheckpointSide): 'file' | 'symlink' {
  return (side.mode & 0o170000) === 0o120000 ? 'symlink' : 'file';
}

/**
 * What the sandbox's base holds at `rel` (a copy's start checkpoint did not keep it: the file
 * was the base's then). With no change against the base now, the sandbox's file is the base.
 */
async function baseContent(sandbox: SandboxInfo, rel: string, tempDir: string, full: boolean): Promise<Buffer | null> {
  const view = await fileDiffView(sandbox, { path: rel, full }, tempDir).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (!view) return fs.readFile(inRoot(sandbox.path, rel)).catch(() => null);
  if (view.oldImageUrl) return Buffer.from(view.oldImageUrl.slice(view.oldImageUrl.indexOf(',') + 1), 'base64');
  return view.oldText === null ? null : Buffer.from(view.oldText, 'utf8');
}
