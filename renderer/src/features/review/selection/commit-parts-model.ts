/**
 * The pure part of committing in part: the files that go in part with the contract's selections,
 * and the hunks a refused commit names.
 */
import type { ChangedFile } from '../../../../../shared/dto.ts';
import { selectionLabel, type FileSelection } from './selection-model.ts';
import type { PartialEntry } from './selection-store.ts';

/** A file committed in part: its path, the words for it and the contract's selection. */
export interface CommitPart {
  path: string;
  label: string;
  selection: FileSelection;
}

/** The parts of `chosen` that have a current entry. */
export function commitParts(chosen: readonly ChangedFile[], entryOf: (change: ChangedFile) => PartialEntry | undefined): CommitPart[] {
  const parts: CommitPart[] = [];
  for (const change of chosen) {
    const entry = entryOf(change);
    if (entry) parts.push({ path: change.path, label: selectionLabel(entry.summary, change.path), selection: entry.selection });
  }
  return parts;
}

/** The contract's `selections` for the parts (undefined when every file goes whole). */
export function selectionsOf(parts: readonly CommitPart[]): Record<string, FileSelection> | undefined {
  return parts.length === 0 ? undefined : Object.fromEntries(parts.map((part) => [part.path, part.selection]));
}

/** Chosen hunks of one file refused because the original changed there too. */
export interface RefusedHunks {
  path: string;
  hunks: number[];
}

/** The refused hunks an error of a commit names (null: the error is not that refusal). */
export function refusedHunks(error: unknown): RefusedHunks[] | null {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 'conflict') return null;
  const paths = (error as { details?: { paths?: unknown } }).details?.paths;
  if (!Array.isArray(paths)) return null;
  const refused = paths.flatMap((p: unknown) => {
    const entry = p as { path?: unknown; hunks?: unknown };
    return typeof entry.path === 'string' && Array.isArray(entry.hunks)
      ? [{ path: entry.path, hunks: entry.hunks.filter((h): h is number => typeof h === 'number') }]
      : [];
  });
  return refused.length > 0 ? refused : null;
}

/** "hunk 3", "hunks 2 and 3", "hunks 1, 2 and 4". */
export function hunkWords(hunks: readonly number[]): string {
  if (hunks.length === 1) return `hunk ${hunks[0]}`;
  return `hunks ${hunks.slice(0, -1).join(', ')} and ${hunks.at(-1)}`;
}
