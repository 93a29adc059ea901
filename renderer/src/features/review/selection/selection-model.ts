/**
 * Partial commits in the app: from the changed lines a person chose (keys of shared/patch-selection)
 * to the contract's selection of hunks and lines, the words that count them, and why a file's
 * lines cannot be chosen.
 */
import { changeKey, hunkState, type ChangeKey, type FilePatch, type LineRange } from '../../../../../shared/patch-selection.ts';
import { formatNumber, nounFor } from '../../../lib/counts.ts';

/** The contract's selection of one file (hunk ids and line ranges, as patch-selection names them). */
export interface FileSelection {
  hunks?: number[];
  lines?: LineRange[];
  /** The fingerprint of the texts chosen on (textsFingerprint), so the engine refuses a file changed since. */
  texts?: string;
}

/** How much of a file's change is chosen, in hunks and in lines. */
export interface SelectionSummary {
  hunks: number;
  hunksTotal: number;
  /** Hunks with some but not all of their lines chosen. */
  partHunks: number;
  lines: number;
  linesTotal: number;
}

/** Every changed line's key, in file order. */
export function changeKeys(patch: FilePatch): ChangeKey[] {
  const keys: ChangeKey[] = [];
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      const key = changeKey(line);
      if (key) keys.push(key);
    }
  }
  return keys;
}

/** Counts of the chosen hunks and lines. */
export function summarize(patch: FilePatch, chosen: ReadonlySet<ChangeKey>): SelectionSummary {
  const summary: SelectionSummary = { hunks: 0, hunksTotal: patch.hunks.length, partHunks: 0, lines: 0, linesTotal: 0 };
  for (const hunk of patch.hunks) {
    const state = hunkState(hunk, chosen);
    if (state === 'all') summary.hunks++;
    if (state === 'some') summary.partHunks++;
  }
  for (const key of changeKeys(patch)) {
    summary.linesTotal++;
    if (chosen.has(key)) summary.lines++;
  }
  return summary;
}

/**
 * The contract's selection for the chosen lines: whole hunks by id, and for a hunk partly chosen
 * its chosen lines as ranges (deletions by old number, additions by new number). 'all' and
 * 'none' when the file is taken whole or not at all (the contract has no selection for those).
 */
export function toSelection(patch: FilePatch, chosen: ReadonlySet<ChangeKey>): FileSelection | 'all' | 'none' {
  const hunks: number[] = [];
  const lines: LineRange[] = [];
  let some = false;
  let every = true;
  for (const hunk of patch.hunks) {
    const state = hunkState(hunk, chosen);
    if (state !== 'all') every = false;
    if (state !== 'none') some = true;
    if (state === 'all') hunks.push(hunk.id);
    if (state !== 'some') continue;
    for (const line of hunk.lines) {
      const key = changeKey(line);
      if (!key || !chosen.has(key)) continue;
      const side = line.kind === 'del' ? 'old' : 'new';
      const no = (side === 'old' ? line.oldNo : line.newNo) as number;
      const last = lines.at(-1);
      // Runs of consecutive numbers on one side become one range; a gap starts another.
      if (last && last.side === side && last.to === no - 1) last.to = no;
      else lines.push({ side, from: no, to: no });
    }
  }
  if (!some) return 'none';
  if (every) return 'all';
  return { ...(hunks.length ? { hunks } : {}), ...(lines.length ? { lines } : {}) };
}

/** "2 of 4 hunks of src/a.ts", or in lines when a hunk is partly chosen. */
export function selectionLabel(summary: SelectionSummary, path: string): string {
  if (summary.partHunks === 0) {
    return `${formatNumber(summary.hunks)} of ${formatNumber(summary.hunksTotal)} ${nounFor(summary.hunksTotal, 'hunk')} of ${path}`;
  }
  return `${formatNumber(summary.lines)} of ${formatNumber(summary.linesTotal)} changed ${nounFor(summary.linesTotal, 'line')} of ${path}`;
}

/** What decides whether lines can be chosen in a file. */
export interface PickableFile {
  status: string;
  binary: boolean;
}

/** Why the hunks and lines of a file cannot be chosen (null: they can). */
export function pickBlocked(file: PickableFile, hideWhitespace: boolean): string | null {
  if (file.binary) return 'Lines can be chosen only in text files: this binary file is committed whole.';
  if (file.status === 'added') return 'This file is new: it is committed whole, so its lines cannot be chosen.';
  if (file.status === 'deleted') return 'This file is deleted: it is committed whole, so its lines cannot be chosen.';
  if (file.status !== 'modified') {
    return 'Lines can be chosen only in a file changed in place: a renamed file or a changed file type is committed whole.';
  }
  if (hideWhitespace) return 'Line selection is off while whitespace changes are hidden: show them to choose lines.';
  return null;
}
