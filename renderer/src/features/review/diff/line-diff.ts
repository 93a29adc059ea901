/**
 * The line diff of two texts: every line of both sides in display order, tagged context, deletion
 * or addition, with line numbers on both sides, grouped into change blocks (deletions first).
 */
import { lineChanges, type LineChange } from '../../../../../shared/diff/hunks.ts';
import { matchLines, MAX_EDITS, type MatchNotes } from '../../../../../shared/diff/line-match.ts';
import { alignBlock } from './align.ts';
import { eolStyle, splitLines, type EolStyle, type SourceLine } from './text-lines.ts';

/** How a line takes part in the diff. */
export type LineKind = 'context' | 'add' | 'del';

/** One line of the diff. Line numbers are 1-based; null on the side the line is absent from. */
export interface DiffLine {
  kind: LineKind;
  oldNo: number | null;
  newNo: number | null;
  text: string;
  crlf: boolean;
  noEol: boolean;
}

/** A run of changed lines: `dels` deletions at [start, start+dels), then `adds` additions. */
export interface ChangeBlock {
  start: number;
  dels: number;
  adds: number;
  /** Side-by-side rows of the block: [deletion offset, addition offset], -1 for an empty half. */
  rows: Array<[number, number]>;
  /** For each offset in the block (deletions, then additions), the offset of its partner, or -1. */
  partner: Int32Array;
}

/** The whole-file line diff the viewer renders from. */
export interface LineDiff {
  lines: DiffLine[];
  blocks: ChangeBlock[];
  additions: number;
  deletions: number;
  /** The exact diff needed too many edits; parts were shown as whole replacements. */
  approximate: boolean;
  /**
   * The changes of an exact comparison (null with whitespace left out), as the shared line match
   * made them: partial commits cut their hunks from these rather than matching the texts again.
   */
  exact: readonly LineChange[] | null;
  /** Line-ending styles of the two sides. */
  oldEol: EolStyle;
  newEol: EolStyle;
}

/** Options of computeLineDiff. */
export interface LineDiffOptions {
  /**
   * Edits (deleted plus added lines) the exact diff may need before the texts are split at
   * unique-line anchors instead; bounds time and memory, which grow with it.
   */
  maxEdits?: number;
  /**
   * Compare lines with all whitespace (and line endings) left out, as `git diff -w`: lines that
   * differ only there become context, shown with the new side's text.
   */
  ignoreWhitespace?: boolean;
}

/**
 * The whitespace `git diff -w` leaves out of a comparison: ASCII only (C's isspace). Not `\s`,
 * which also takes no-break and other Unicode spaces (and U+FEFF): a change to one of those, in
 * a string or a name, changes what the code does and must stay visible.
 */
const WHITESPACE = /[ \t\n\v\f\r]+/g;

/**
 * Diffs `oldText` against `newText` by lines. Lines (text plus ending, exactly as rendered) are
 * interned to integers and matched by the shared line match (shared/diff/line-match.ts), the one
 * `plans diff` and partial commits use, so all three show the same changed lines.
 */
export function computeLineDiff(oldText: string, newText: string, options: LineDiffOptions = {}): LineDiff {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  // One table per line ending, so equal text with different endings differs without building keys.
  const tables = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  let nextId = 0;
  const loose = options.ignoreWhitespace === true;
  const intern = (line: SourceLine): number => {
    const ids = tables[loose ? 0 : line.crlf ? 1 : line.noEol ? 2 : 0] as Map<string, number>;
    const key = loose ? line.text.replace(WHITESPACE, '') : line.text;
    let id = ids.get(key);
    if (id === undefined) {
      id = nextId++;
      ids.set(key, id);
    }
    return id;
  };
  const a = oldLines.map(intern);
  const b = newLines.map(intern);
  const notes: MatchNotes = { approximate: false };
  const matches = matchLines(a, b, options.maxEdits ?? MAX_EDITS, notes);
  const changes = lineChanges(matches, a.length, b.length);
  return {
    ...assemble(changes, oldLines, newLines),
    exact: loose || options.maxEdits !== undefined ? null : changes,
    approximate: notes.approximate,
    oldEol: eolStyle(oldLines),
    newEol: eolStyle(newLines),
  };
}

/** Turns the changes into display lines, each block's deletions before its additions. */
function assemble(
  changes: readonly LineChange[],
  oldLines: SourceLine[],
  newLines: SourceLine[],
): Pick<LineDiff, 'lines' | 'blocks' | 'additions' | 'deletions'> {
  const lines: DiffLine[] = [];
  const blocks: ChangeBlock[] = [];
  const push = (kind: LineKind, line: SourceLine, oldNo: number | null, newNo: number | null) =>
    lines.push({ kind, oldNo, newNo, text: line.text, crlf: line.crlf, noEol: line.noEol });
  let oi = 0;
  let ni = 0;
  let additions = 0;
  let deletions = 0;
  for (const change of [...changes, { oldAt: oldLines.length, newAt: newLines.length, dels: 0, adds: 0 }]) {
    // Context is shown with the new side's text: with whitespace hidden the two may differ.
    for (; oi < change.oldAt; oi++, ni++) push('context', newLines[ni] as SourceLine, oi + 1, ni + 1);
    if (change.dels + change.adds === 0) continue;
    blocks.push(pairBlock(lines.length, oldLines.slice(oi, oi + change.dels), newLines.slice(ni, ni + change.adds)));
    for (let n = 0; n < change.dels; n++, oi++) push('del', oldLines[oi] as SourceLine, oi + 1, null);
    for (let n = 0; n < change.adds; n++, ni++) push('add', newLines[ni] as SourceLine, null, ni + 1);
    additions += change.adds;
    deletions += change.dels;
  }
  return { lines, blocks, additions, deletions };
}

/** A block starting at line `start`, with its deleted and added lines aligned (see align.ts). */
function pairBlock(start: number, deleted: SourceLine[], added: SourceLine[]): ChangeBlock {
  const rows = alignBlock(
    deleted.map((line) => line.text),
    added.map((line) => line.text),
  );
  const partner = new Int32Array(deleted.length + added.length).fill(-1);
  for (const [d, a] of rows) {
    if (d < 0 || a < 0) continue;
    partner[d] = deleted.length + a;
    partner[deleted.length + a] = d;
  }
  return { start, dels: deleted.length, adds: added.length, rows, partner };
}

/** The index of the line facing line `index` in its change block (its old or new version), or -1. */
export function pairedLine(block: ChangeBlock, index: number): number {
  const partner = block.partner[index - block.start];
  return partner === undefined || partner < 0 ? -1 : block.start + partner;
}
