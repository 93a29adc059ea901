/**
 * The line diff of two texts: every line of both sides in display order, tagged context, deletion
 * or addition, with line numbers on both sides, grouped into change blocks (deletions first).
 */
import { alignBlock } from './align.ts';
import { myersDiff, pushRun, type EditRun } from './myers.ts';
import { anchoredDiff } from './patience.ts';
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

/** The default bound on the exact diff's edit distance (a few milliseconds per 10,000 lines). */
export const DEFAULT_MAX_EDITS = 2000;

/**
 * Diffs `oldText` against `newText` by lines. Lines (text plus ending, exactly as rendered) are
 * interned to integers and diffed with Myers' algorithm; when that needs more than `maxEdits`
 * edits, the texts are split at lines that occur once on each side (patience anchors) and the
 * stretches between are diffed separately.
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
  const state = { approximate: false };
  const ops = diffIds(a, b, options.maxEdits ?? DEFAULT_MAX_EDITS, state);
  return {
    ...assemble(ops, oldLines, newLines),
    approximate: state.approximate,
    oldEol: eolStyle(oldLines),
    newEol: eolStyle(newLines),
  };
}

/** Edit script of two id arrays: common prefix and suffix first, then Myers within a bound. */
function diffIds(a: number[], b: number[], maxEdits: number, state: { approximate: boolean }): EditRun[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const ops: EditRun[] = [];
  pushRun(ops, 'eq', prefix);
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  if (midA.length === 0 || midB.length === 0) {
    pushRun(ops, 'del', midA.length);
    pushRun(ops, 'add', midB.length);
  } else {
    const exact = myersDiff(midA, midB, maxEdits);
    for (const op of exact ?? anchoredDiff(midA, midB, maxEdits, state)) pushRun(ops, op.kind, op.count);
  }
  pushRun(ops, 'eq', suffix);
  return ops;
}

/** Turns an edit script into display lines, putting each block's deletions before its additions. */
function assemble(
  ops: EditRun[],
  oldLines: SourceLine[],
  newLines: SourceLine[],
): Pick<LineDiff, 'lines' | 'blocks' | 'additions' | 'deletions'> {
  const lines: DiffLine[] = [];
  const blocks: ChangeBlock[] = [];
  let oi = 0;
  let ni = 0;
  let additions = 0;
  let deletions = 0;
  let k = 0;
  while (k < ops.length) {
    const op = ops[k] as EditRun;
    if (op.kind === 'eq') {
      for (let n = 0; n < op.count; n++) {
        const line = newLines[ni] as SourceLine;
        lines.push({
          kind: 'context',
          oldNo: oi + 1,
          newNo: ni + 1,
          text: line.text,
          crlf: line.crlf,
          noEol: line.noEol,
        });
        oi++;
        ni++;
      }
      k++;
      continue;
    }
    let dels = 0;
    let adds = 0;
    while (k < ops.length && (ops[k] as EditRun).kind !== 'eq') {
      const change = ops[k] as EditRun;
      if (change.kind === 'del') dels += change.count;
      else adds += change.count;
      k++;
    }
    blocks.push(pairBlock(lines.length, oldLines.slice(oi, oi + dels), newLines.slice(ni, ni + adds)));
    for (let n = 0; n < dels; n++, oi++) {
      const line = oldLines[oi] as SourceLine;
      lines.push({
        kind: 'del',
        oldNo: oi + 1,
        newNo: null,
        text: line.text,
        crlf: line.crlf,
        noEol: line.noEol,
      });
    }
    for (let n = 0; n < adds; n++, ni++) {
      const line = newLines[ni] as SourceLine;
      lines.push({
        kind: 'add',
        oldNo: null,
        newNo: ni + 1,
        text: line.text,
        crlf: line.crlf,
        noEol: line.noEol,
      });
    }
    additions += adds;
    deletions += dels;
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
