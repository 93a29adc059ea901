/**
 * One changed file as the diff viewer takes it (shared FileDiffView): the texts of both sides,
 * or sizes for binary files, or data URLs for images, or `tooLarge` with the texts withheld.
 * The viewer diffs in the renderer; main only reads the two sides, so nothing is diffed twice.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import type { CommittedState, FileDiffView, SandboxInfo } from '../../../shared/dto.ts';
import { NotFoundError } from '../../../shared/errors.ts';
import { inspectPath, type InspectedChange, type PathState } from '../../sandbox/index.ts';
import { readBlobs } from '../../sandbox/index.ts';
import { TEXT_LIMIT } from '../../sandbox/index.ts';
import { displayPath, inRoot } from '../../sandbox/index.ts';

/** Bytes a side may have when the user asked to see a large file anyway. */
export const FULL_TEXT_LIMIT = 32 * 1024 * 1024;

/** Bytes an image side may have to travel as a data URL. */
export const IMAGE_LIMIT = 8 * 1024 * 1024;

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.avif': 'image/avif',
  // Safe as a data: URL in an <img>: an SVG drawn as an image runs no script and loads nothing.
  '.svg': 'image/svg+xml',
};

/** The image MIME type for a path, or null when it is not an image the viewer shows. */
export function imageType(relPath: string): string | null {
  return IMAGE_TYPES[path.extname(relPath).toLowerCase()] ?? null;
}

/** What to show of one file: against the base (default) or the original as it is now (conflicts). */
export interface FileDiffRequest {
  path: string;
  against?: 'base' | 'original';
  /** Load texts over the usual limit (the viewer's "show anyway"). */
  full?: boolean;
}

/** The viewer's input for one changed path of a sandbox. */
export async function fileDiffView(
  sandbox: SandboxInfo,
  request: FileDiffRequest,
  tempDir: string,
  ownCommits?: ReadonlyMap<string, CommittedState>,
): Promise<FileDiffView> {
  // With the sandbox's own commits, a partial commit's rest reads against the original it left.
  const found = await inspectPath(sandbox, tempDir, request.path, ownCommits);
  if (!found) {
    throw new NotFoundError(
      `${displayPath(request.path)} has no change in the sandbox of ${sandbox.resourceName} (any more): refresh the file list.`,
      {
        path: request.path,
      },
    );
  }
  const { change } = found;
  const sides = await readSides(sandbox, found, request);
  const mime = imageType(change.path);
  const view: FileDiffView = {
    sandboxId: sandbox.id,
    oldPath: change.kind === 'added' ? null : (change.oldPath ?? change.path),
    newPath: change.kind === 'deleted' ? null : change.path,
    status: change.kind,
    ...(change.similarity === undefined ? {} : { similarity: change.similarity }),
    binary: change.binary,
    oldSize: sides.oldSize,
    newSize: sides.newSize,
    oldText: null,
    newText: null,
    oldImageUrl: null,
    newImageUrl: null,
    tooLarge: false,
    additions: change.additions,
    deletions: change.deletions,
    oldMode: change.oldMode,
    newMode: change.newMode,
    oldType: change.oldType,
    newType: change.newType,
    against: sides.against,
    drift: change.drift,
    driftReason: change.driftReason,
  };
  if (mime) {
    view.oldImageUrl = dataUrl(mime, sides.oldData);
    view.newImageUrl = dataUrl(mime, sides.newData);
    return view;
  }
  if (change.binary) return view;
  const missingOld = change.kind !== 'added' && sides.oldData === null;
  const missingNew = change.kind !== 'deleted' && sides.newData === null;
  if (missingOld || missingNew) return { ...view, tooLarge: true };
  return {
    ...view,
    oldText: change.kind === 'added' ? null : text(sides.oldData),
    newText: change.kind === 'deleted' ? null : text(sides.newData),
  };
}

interface Sides {
  oldData: Buffer | null;
  newData: Buffer | null;
  oldSize: number | null;
  newSize: number | null;
  against: 'base' | 'original';
}

async function readSides(
  sandbox: SandboxInfo,
  found: InspectedChange,
  request: FileDiffRequest,
): Promise<Sides> {
  const { change, target } = found;
  const before: PathState = found.source ?? target;
  const limit = request.full ? FULL_TEXT_LIMIT : TEXT_LIMIT;
  const wantOriginal = request.against === 'original';
  let against: Sides['against'] = wantOriginal ? 'original' : 'base';
  let oldData: Buffer | null = null;
  let oldSize: number | null = null;
  if (change.kind !== 'added') {
    const original = before.original;
    const originalData = original.type === 'file' || original.type === 'symlink' ? original.data : null;
    if (wantOriginal) oldData = originalData;
    else {
      oldData = before.baseContent;
      // A copy whose original changed keeps no base content: compare with the original, and say so.
      if (
        oldData === null &&
        !before.originalIsBase &&
        before.base?.kind === 'copy' &&
        originalData !== null
      ) {
        oldData = originalData;
        against = 'original';
      }
    }
    if (oldData === null && (request.full || imageType(change.path))) {
      oldData = await readLargeOld(sandbox, before, against, request.full ? limit : IMAGE_LIMIT);
    }
    oldSize = oldData?.length ?? baseSize(before, against);
  }
  const now = target.sandbox;
  let newData = now.type === 'file' || now.type === 'symlink' ? now.data : null;
  if (newData === null && now.type === 'file' && (request.full || imageType(change.path))) {
    newData = await readCapped(inRoot(sandbox.path, target.rel), request.full ? limit : IMAGE_LIMIT);
  }
  const newSize = now.type === 'file' || now.type === 'symlink' ? now.size : null;
  return { oldData, newData, oldSize, newSize, against };
}

/** The old side of a file over the usual limit: the git base blob, or the original when it is the base. */
async function readLargeOld(
  sandbox: SandboxInfo,
  state: PathState,
  against: Sides['against'],
  limit: number,
): Promise<Buffer | null> {
  if (against === 'original' || (state.base?.kind === 'copy' && state.originalIsBase)) {
    return state.original.type === 'file' ? readCapped(inRoot(sandbox.originalPath, state.rel), limit) : null;
  }
  if (state.base?.kind === 'git') {
    const blob = state.base.entry.blob;
    return (await readBlobs(sandbox.path, [blob], limit)).get(blob) ?? null;
  }
  return null;
}

async function readCapped(at: string | Buffer, limit: number): Promise<Buffer | null> {
  const stat = await fs.stat(at).catch(() => null);
  if (!stat || !stat.isFile() || stat.size > limit) return null;
  return fs.readFile(at);
}

function baseSize(state: PathState, against: Sides['against']): number | null {
  if (against === 'base' && state.base?.kind === 'copy') return state.base.entry.size;
  const original = state.original;
  return original.type === 'file' || original.type === 'symlink' ? original.size : null;
}

/** An image side as a data URL the viewer draws, or null when absent or too large. */
export function dataUrl(mime: string, data: Buffer | null): string | null {
  if (data === null || data.length > IMAGE_LIMIT) return null;
  return `data:${mime};base64,${data.toString('base64')}`;
}

function text(data: Buffer | null): string {
  return (data ?? Buffer.alloc(0)).toString('utf8');
}
