/**
 * Which layout a change opens in. Side by side, an added or deleted file is one empty column
 * beside the text, so those open unified; everything else opens in the layout the user chose.
 */
import type { ChangedFile } from '../../../../shared/dto.ts';
import type { DiffMode } from './diff/index.ts';

/** Whether a change has only one side (added or deleted). */
export function oneSided(kind: ChangedFile['kind']): boolean {
  return kind === 'added' || kind === 'deleted';
}

/** The layout to show: `override` (picked for this file) or unified for one-sided changes, else `chosen`. */
export function layoutFor(kind: ChangedFile['kind'], chosen: DiffMode, override: DiffMode | null): DiffMode {
  return oneSided(kind) ? (override ?? 'unified') : chosen;
}
