/**
 * The likeness a rename with edits shows beside its "R" (as git's R093): "93%". A rename without
 * edits (100%) and every other kind show the letter alone.
 */
import type { ChangeKindValue } from '../../../../shared/dto.ts';

/** "93%" for a rename whose content changed, else null. */
export function renameSimilarity(kind: ChangeKindValue, similarity: number | null | undefined): string | null {
  if (kind !== 'renamed' || similarity === undefined || similarity === null || similarity >= 100) return null;
  return `${Math.max(0, Math.floor(similarity))}%`;
}
