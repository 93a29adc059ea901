/**
 * What a review note is anchored to: the text of one side of a sandbox file, as the diff view
 * shows it ('old' is the side the diff compares with, 'new' the sandbox's file), and the lines
 * of it a note was written on.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CommittedState, SandboxInfo } from '../../shared/dto.ts';
import { NotFoundError } from '../../shared/errors.ts';
import type { NoteSide } from '../../shared/review-dto.ts';
import { inRoot } from '../sandbox/index.ts';
import { FULL_TEXT_LIMIT, fileDiffView } from './api/file-diff-view.ts';

/** The texts of both sides of a file; null where a side is missing, binary or too large. */
export type NoteSides = Record<NoteSide, string | null>;

/**
 * Both sides of `rel` in the sandbox: a changed file's (`changed`, from the change list) as its
 * diff shows them, an unchanged file's content on both. Null when the path is neither changed nor
 * a file of the sandbox. Only changed files go through the diff: asked about a path it has not
 * listed, it would list the whole sandbox again. `ownCommits`: SandboxManager.ownCommits.
 */
export async function readNoteSides(
  sandbox: SandboxInfo,
  rel: string,
  tempDir: string,
  changed: boolean,
  ownCommits?: ReadonlyMap<string, CommittedState>,
): Promise<NoteSides | null> {
  if (changed) {
    try {
      // With the sandbox's own commits, as the viewer and `plans diff` read it: after a partial
      // commit the old side is the original that commit left, not the base.
      const view = await fileDiffView(sandbox, { path: rel, full: true }, tempDir, ownCommits);
      return { old: view.oldText, new: view.newText };
    } catch (error) {
      // Changed back since the list was made: read it as an unchanged file.
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const data = await readInside(sandbox.path, rel);
  if (data === null) return null;
  const text = looksBinary(data) ? null : data.toString('utf8');
  return { old: text, new: text };
}

/** The lines of a text as the diff numbers them (a final newline ends the last line; CR of CRLF dropped). */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** Lines `from..to` (1-based, inclusive) of `text` joined by newlines; null when the text is shorter. */
export function anchorOf(text: string, from: number, to: number): string | null {
  const lines = linesOf(text);
  if (from < 1 || to < from || to > lines.length) return null;
  return lines.slice(from - 1, to).join('\n');
}

/** A regular file's bytes, when it lies inside the sandbox (no symlink leads out) and is not huge. */
async function readInside(root: string, rel: string): Promise<Buffer | null> {
  const at = inRoot(root, rel);
  const stat = await fs.lstat(at).catch(() => null);
  if (!stat?.isFile() || stat.size > FULL_TEXT_LIMIT) return null;
  const [realRoot, realFile] = await Promise.all([fs.realpath(root), fs.realpath(at).catch(() => null)]);
  if (realFile === null || !String(realFile).startsWith(realRoot + path.sep)) return null;
  return fs.readFile(at);
}

/** Git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
function looksBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0);
}
