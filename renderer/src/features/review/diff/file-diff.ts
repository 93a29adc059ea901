/**
 * The input of the diff viewer: one changed file as the review screens receive it. Declared here
 * until the contract moves it to shared/; field names follow shared ChangedFile.
 */
import type { ChangeKindValue, EntryType } from '../../../../../shared/dto.ts';

/** One file to show: paths, status, sizes, and the texts or image URLs the viewer renders. */
export interface DiffFile {
  /** Path before the change; null for an added file. */
  oldPath: string | null;
  /** Path after the change; null for a deleted file. */
  newPath: string | null;
  /** What happened to the file between the sandbox's base and the sandbox. */
  status: ChangeKindValue;
  binary: boolean;
  /** Sizes in bytes; null where that side does not exist. */
  oldSize: number | null;
  newSize: number | null;
  /** The texts of both sides; absent when not loaded (binary, or withheld because too large). */
  oldText?: string | null;
  newText?: string | null;
  /** Image sources (object or data URLs) for image files; the viewer shows them side by side. */
  oldImageUrl?: string | null;
  newImageUrl?: string | null;
  /** The provider withheld or flagged the diff as too large to show without asking. */
  tooLarge?: boolean;
  /** Line counts when the provider knows them (used by the large-file gate before any diffing). */
  additions?: number | null;
  deletions?: number | null;
  /** POSIX modes (e.g. 0o100644) and entry types, for mode and type changes. */
  oldMode?: number | null;
  newMode?: number | null;
  /** A symlink's "text" is its target. */
  oldType?: EntryType | null;
  newType?: EntryType | null;
}

/** The two layouts of a text diff. */
export type DiffMode = 'unified' | 'split';

/** The path to show for a file: the new one, or the old one for a deletion. */
export function displayPath(file: Pick<DiffFile, 'oldPath' | 'newPath'>): string {
  return file.newPath ?? file.oldPath ?? '';
}
