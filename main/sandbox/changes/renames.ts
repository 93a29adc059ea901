/**
 * Renames: a deleted and an added path with the same content (100%), then, among the rest, those
 * at least 50% alike (git's default, similarity.ts), for worktrees and copies alike. A rename with
 * edits has its line counts from the two fingerprints' line hashes.
 */
import type { ChangedFile } from '../../../shared/dto.ts';
import { gitBlobId, sha256 } from './content.ts';
import { matchLines } from '../../../shared/diff/line-match.ts';
import { pairBySimilarity, type Fingerprint } from './similarity.ts';

/**
 * The content ids of an empty file (git blob ids, sha1 and sha256, and a copy's sha256): empty
 * files are never paired. Any deletion of one "matches" any addition of one, so a pairing would
 * be arbitrary, and committing the added file would delete an unrelated one with it.
 */
const EMPTY_IDS = new Set([gitBlobId(Buffer.alloc(0)), gitBlobId(Buffer.alloc(0), 64), sha256(Buffer.alloc(0))].map((id) => `file:${id}`));

/** A change to pair into renames, with what pairing compares (computed only when needed). */
export interface Pairable<T> {
  value: T;
  change: ChangedFile;
  /** The identity of an added path's new content. */
  addedId: () => string | null;
  /** The identity of a deleted path's old content. */
  deletedId: () => string | null;
  /** The fingerprint of an added path's new content or a deleted path's old one, when it was held. */
  fingerprint: () => Fingerprint | null;
}

/** Turns a deleted and an added path with the same or a similar content into one rename, made by `renamed`. */
export function pairRenames<T>(items: Array<Pairable<T>>, renamed: (added: T, deleted: T, change: ChangedFile) => T): T[] {
  const deleted = items.filter((c) => c.change.kind === 'deleted');
  if (deleted.length === 0) return items.map((c) => c.value);
  const deletedById = new Map<string, Pairable<T>>();
  for (const c of deleted) {
    const id = c.deletedId();
    if (id && !EMPTY_IDS.has(id) && !deletedById.has(id)) deletedById.set(id, c);
  }
  const consumed = new Set<Pairable<T>>();
  const out: T[] = [];
  const pair = (c: Pairable<T>, gone: Pairable<T>, edits: { similarity: number; additions: number | null; deletions: number | null }): void => {
    consumed.add(gone).add(c);
    out.push(renamed(c.value, gone.value, renameChange(c.change, gone.change, edits)));
  };
  const added = items.filter((c) => c.change.kind === 'added');
  for (const c of added) {
    const id = c.addedId();
    const gone = id === null ? undefined : deletedById.get(id);
    if (gone && !consumed.has(gone)) pair(c, gone, { similarity: 100, additions: 0, deletions: 0 });
  }
  const restAdded = added.filter((c) => !consumed.has(c));
  const restDeleted = deleted.filter((c) => !consumed.has(c));
  if (restAdded.length > 0 && restDeleted.length > 0) {
    // Each fingerprint made once: one reads the whole content, and a pair needs both again for its counts.
    const prints = restDeleted.map((c) => c.fingerprint());
    const addedPrints = restAdded.map((c) => c.fingerprint());
    for (const [ai, di, score] of pairBySimilarity(prints, addedPrints)) {
      const c = restAdded[ai]!;
      const gone = restDeleted[di]!;
      const binary = c.change.binary || gone.change.binary;
      const from = prints[di]!.lines;
      const to = addedPrints[ai]!.lines;
      const matched = binary ? 0 : matchLines(from, to).length / 2;
      pair(c, gone, { similarity: Math.floor(score * 100), additions: binary ? null : to.length - matched, deletions: binary ? null : from.length - matched });
    }
  }
  return [...items.filter((c) => !consumed.has(c)).map((c) => c.value), ...out];
}

/**
 * The rename of `gone` to `added`: in conflict when either half is, applied only when both halves
 * are (a new path that is already there still leaves the old one to delete).
 */
export function renameChange(added: ChangedFile, gone: ChangedFile, edits: { similarity: number; additions: number | null; deletions: number | null }): ChangedFile {
  const conflict = added.drift === 'conflict' ? added : gone.drift === 'conflict' ? gone : null;
  const drift = conflict ? 'conflict' : added.drift === 'applied' && gone.drift === 'applied' ? 'applied' : 'clean';
  return {
    ...added,
    kind: 'renamed',
    oldPath: gone.path,
    oldType: gone.oldType,
    oldMode: gone.oldMode,
    binary: added.binary || gone.binary,
    additions: edits.additions,
    deletions: edits.deletions,
    similarity: edits.similarity,
    drift,
    driftReason: conflict?.driftReason ?? null,
  };
}
