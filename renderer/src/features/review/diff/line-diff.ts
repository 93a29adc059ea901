/**
 * The line diff of two texts: every line of both sides in display order, tagged context, deletion
 * or addition, with line numbers on both sides, grouped into change blocks (deletions first).
 */
import { diffArrays } from 'diff';
import { splitLines, type SourceLine } from './text-lines.ts';

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
}

/** The whole-file line diff the viewer renders from. */
export interface LineDiff {
  lines: DiffLine[];
  blocks: ChangeBlock[];
  additions: number;
  deletions: number;
  /** The exact diff took too long; parts were shown as whole replacements. */
  approximate: boolean;
}

/** Options of computeLineDiff. */
export interface LineDiffOptions {
  /** Time budget of the exact (Myers) diff before falling back to unique-line anchors. */
  timeoutMs?: number;
}

type Op = { kind: 'eq' | 'del' | 'add'; count: number };

/**
 * Diffs `oldText` against `newText` by lines. Lines are interned to integers and diffed with
 * jsdiff's Myers implementation (diffArrays), so the tokenization is exactly the one rendered
 * (text plus line ending); when that exceeds its time budget, the texts are split at lines that
 * occur once on each side (patience anchors) and the gaps are diffed separately.
 */
export function computeLineDiff(oldText: string, newText: string, options: LineDiffOptions = {}): LineDiff {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const ids = new Map<string, number>();
  const intern = (line: SourceLine): number => {
    const key = `${line.crlf ? 'c' : line.noEol ? 'n' : 'l'}${line.text}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    return id;
  };
  const a = oldLines.map(intern);
  const b = newLines.map(intern);
  const state = { approximate: false };
  const ops = diffIds(a, b, options.timeoutMs ?? 300, state);
  return assemble(ops, oldLines, newLines, state.approximate);
}

/** Edit script of two id arrays: common prefix and suffix first, then Myers with a budget. */
function diffIds(a: number[], b: number[], timeoutMs: number, state: { approximate: boolean }): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const ops: Op[] = [];
  push(ops, 'eq', prefix);
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  if (midA.length === 0 || midB.length === 0) {
    push(ops, 'del', midA.length);
    push(ops, 'add', midB.length);
  } else {
    const exact = diffArrays(midA, midB, { timeout: timeoutMs });
    if (exact) {
      for (const change of exact) push(ops, change.removed ? 'del' : change.added ? 'add' : 'eq', change.count ?? change.value.length);
    } else {
      for (const op of anchoredDiff(midA, midB, timeoutMs, state)) push(ops, op.kind, op.count);
    }
  }
  push(ops, 'eq', suffix);
  return ops;
}

/**
 * Patience-style fallback: matches lines unique on both sides, keeps the longest increasing run of
 * those matches as anchors, and diffs the stretches between anchors (a stretch that is still too
 * slow becomes a whole replacement, and the diff is flagged approximate).
 */
function anchoredDiff(a: number[], b: number[], timeoutMs: number, state: { approximate: boolean }): Op[] {
  const anchors = uniqueAnchors(a, b);
  const ops: Op[] = [];
  const deadline = performance.now() + timeoutMs;
  let ai = 0;
  let bi = 0;
  for (const [ax, bx] of [...anchors, [a.length, b.length] as const]) {
    const segA = a.slice(ai, ax);
    const segB = b.slice(bi, bx);
    if (segA.length && segB.length) {
      const left = deadline - performance.now();
      const exact = left > 0 ? diffArrays(segA, segB, { timeout: Math.max(1, left) }) : undefined;
      if (exact) {
        for (const change of exact) push(ops, change.removed ? 'del' : change.added ? 'add' : 'eq', change.count ?? change.value.length);
      } else {
        state.approximate = true;
        push(ops, 'del', segA.length);
        push(ops, 'add', segB.length);
      }
    } else {
      push(ops, 'del', segA.length);
      push(ops, 'add', segB.length);
    }
    if (ax < a.length) push(ops, 'eq', 1);
    ai = ax + 1;
    bi = bx + 1;
  }
  return ops;
}

/** Pairs (i, j) with a[i] === b[j] unique on both sides, reduced to their longest increasing chain. */
export function uniqueAnchors(a: readonly number[], b: readonly number[]): Array<[number, number]> {
  const countA = new Map<number, number>();
  const posA = new Map<number, number>();
  a.forEach((id, i) => {
    countA.set(id, (countA.get(id) ?? 0) + 1);
    posA.set(id, i);
  });
  const countB = new Map<number, number>();
  const posB = new Map<number, number>();
  b.forEach((id, j) => {
    countB.set(id, (countB.get(id) ?? 0) + 1);
    posB.set(id, j);
  });
  const pairs: Array<[number, number]> = [];
  a.forEach((id, i) => {
    if (countA.get(id) === 1 && countB.get(id) === 1) pairs.push([i, posB.get(id) as number]);
  });
  return longestIncreasing(pairs);
}

/** The longest subsequence of `pairs` (sorted by first) whose second members increase (patience sort). */
function longestIncreasing(pairs: Array<[number, number]>): Array<[number, number]> {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  pairs.forEach(([, j], k) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pairs[tails[mid] as number] as [number, number])[1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1] as number;
    tails[lo] = k;
  });
  const chain: Array<[number, number]> = [];
  for (let k = tails.length ? (tails[tails.length - 1] as number) : -1; k !== -1; k = prev[k] as number) {
    chain.push(pairs[k] as [number, number]);
  }
  return chain.reverse();
}

function push(ops: Op[], kind: Op['kind'], count: number): void {
  if (count <= 0) return;
  const last = ops[ops.length - 1];
  if (last && last.kind === kind) last.count += count;
  else ops.push({ kind, count });
}

/** Turns an edit script into display lines, putting each block's deletions before its additions. */
function assemble(ops: Op[], oldLines: SourceLine[], newLines: SourceLine[], approximate: boolean): LineDiff {
  const lines: DiffLine[] = [];
  const blocks: ChangeBlock[] = [];
  let oi = 0;
  let ni = 0;
  let additions = 0;
  let deletions = 0;
  let k = 0;
  while (k < ops.length) {
    const op = ops[k] as Op;
    if (op.kind === 'eq') {
      for (let n = 0; n < op.count; n++) {
        const line = newLines[ni] as SourceLine;
        lines.push({ kind: 'context', oldNo: oi + 1, newNo: ni + 1, text: line.text, crlf: line.crlf, noEol: line.noEol });
        oi++;
        ni++;
      }
      k++;
      continue;
    }
    let dels = 0;
    let adds = 0;
    while (k < ops.length && (ops[k] as Op).kind !== 'eq') {
      const change = ops[k] as Op;
      if (change.kind === 'del') dels += change.count;
      else adds += change.count;
      k++;
    }
    blocks.push({ start: lines.length, dels, adds });
    for (let n = 0; n < dels; n++, oi++) {
      const line = oldLines[oi] as SourceLine;
      lines.push({ kind: 'del', oldNo: oi + 1, newNo: null, text: line.text, crlf: line.crlf, noEol: line.noEol });
    }
    for (let n = 0; n < adds; n++, ni++) {
      const line = newLines[ni] as SourceLine;
      lines.push({ kind: 'add', oldNo: null, newNo: ni + 1, text: line.text, crlf: line.crlf, noEol: line.noEol });
    }
    additions += adds;
    deletions += dels;
  }
  return { lines, blocks, additions, deletions, approximate };
}

/** The index of the line paired with line `index` inside its change block (deletion i with addition i), or -1. */
export function pairedLine(block: ChangeBlock, index: number): number {
  const offset = index - block.start;
  if (offset < 0) return -1;
  if (offset < block.dels) return offset < block.adds ? block.start + block.dels + offset : -1;
  const addOffset = offset - block.dels;
  return addOffset < block.adds && addOffset < block.dels ? block.start + addOffset : -1;
}
