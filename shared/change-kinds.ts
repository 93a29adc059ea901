/**
 * How a change kind is shown, the same in the CLI's change list and the app's file list and diff
 * header: one letter as git's status shows it (X for a mode-only change, which git folds into M),
 * and a word.
 */
import type { ChangeKindValue } from './dto.ts';

/** The status letter of each change kind. */
export const STATUS_LETTER: Readonly<Record<ChangeKindValue, string>> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  renamed: 'R',
  type_changed: 'T',
  mode_changed: 'X',
};

/** The label of each change kind, for titles and screen readers. */
export const STATUS_LABEL: Readonly<Record<ChangeKindValue, string>> = {
  added: 'Added',
  modified: 'Modified',
  deleted: 'Deleted',
  renamed: 'Renamed',
  type_changed: 'Type changed',
  mode_changed: 'Mode changed',
};
