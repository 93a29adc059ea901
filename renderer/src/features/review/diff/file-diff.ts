/**
 * The input of the diff viewer: one changed file as the review screens receive it, the contract's
 * FileDiffView with what only the service knows (sandbox, drift, against) left out.
 */
import type { FileDiffView } from '../../../../../shared/dto.ts';

/**
 * One file to show: paths, status, sizes, and the texts or image URLs the viewer renders. Texts,
 * images, counts, modes and types may be absent (not loaded: binary, or withheld as too large).
 */
export type DiffFile = Pick<FileDiffView, 'oldPath' | 'newPath' | 'status' | 'binary' | 'oldSize' | 'newSize' | 'similarity'> &
  Partial<
    Pick<
      FileDiffView,
      'oldText' | 'newText' | 'oldImageUrl' | 'newImageUrl' | 'tooLarge' | 'additions' | 'deletions' | 'oldMode' | 'newMode' | 'oldType' | 'newType'
    >
  >;

/** The two layouts of a text diff. */
export type DiffMode = 'unified' | 'split';

/** The path to show for a file: the new one, or the old one for a deletion. */
export function displayPath(file: Pick<DiffFile, 'oldPath' | 'newPath'>): string {
  return file.newPath ?? file.oldPath ?? '';
}
