/**
 * The one line matching of Bindery (the viewer's diff, `plans diff`, partial commits and line
 * counts all use it, so they agree on every changed line). Its cost is bounded by the files'
 * sizes: shared head and tail trimmed, lines that occur on one side only dropped (they are
 * changes whatever the alignment, as git's xdiff does), then Myers' exact diff within an edit
 * budget, and past it an anchored match on lines unique to both sides (patience) with Myers again
 * between anchors. Self-contained on purpose: a worker thread runs these functions' source
 * (lineMatchSource).
 */

/** Edits (deleted plus added lines, after the reductions above) Myers may spend before anchors take over. */
export const MAX_EDITS = 2000;

/** The lines of a text as git splits them: each ends after its newline; a last one without it counts too. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
    lines.push(text.slice(from, at + 1));
    from = at + 1;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}

/** Both sides' lines as numbers, equal lines equal numbers. */
export function internLines(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const intern = (lines: readonly string[]): Int32Array => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      let id = ids.get(lines[i]!);
      if (id === undefined) ids.set(lines[i]!, (id = ids.size));
      out[i] = id;
    }
    return out;
  };
  return [intern(a), intern(b)];
}

/** What a match had to give up: set when a stretch past the budget was left unmatched (shown as a whole replacement). */
export interface MatchNotes {
  approximate: boolean;
}

/**
 * The lines of `a` matched with lines of `b`, in order, as pairs [i0, j0, i1, j1, ...]: a longest
 * common subsequence when it is within the budget, a long one otherwise (`notes` says if shorter).
 */
export function matchLines(a: ArrayLike<number>, b: ArrayLike<number>, maxEdits: number = MAX_EDITS, notes?: MatchNotes): Int32Array {
  const out: number[] = [];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) out.push(head, head++);
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  // Only lines present on both sides can match: the others are left out of the search.
  const inA = presence(a, head, a.length - tail);
  const inB = presence(b, head, b.length - tail);
  const keptA: number[] = [];
  const keptB: number[] = [];
  for (let i = head; i < a.length - tail; i++) if (inB.has(a[i]!)) keptA.push(i);
  for (let j = head; j < b.length - tail; j++) if (inA.has(b[j]!)) keptB.push(j);
  const valuesA = keptA.map((i) => a[i]!);
  const valuesB = keptB.map((j) => b[j]!);
  const middle = myersMatches(valuesA, valuesB, maxEdits) ?? anchoredMatches(valuesA, valuesB, maxEdits, notes);
  for (let k = 0; k < middle.length; k += 2) out.push(keptA[middle[k]!]!, keptB[middle[k + 1]!]!);
  for (let t = tail; t > 0; t--) out.push(a.length - t, b.length - t);
  return Int32Array.from(out);
}

/**
 * The ids of `side[from..to)` as a set. Interned ids are small and dense, so a byte per id beats
 * a Set on a 25,000-line file by several milliseconds; sparse ids fall back to a Set.
 */
function presence(side: ArrayLike<number>, from: number, to: number): { has(id: number): boolean } {
  if (!denseIds(side, from, to)) {
    const set = new Set<number>();
    for (let i = from; i < to; i++) set.add(side[i]!);
    return set;
  }
  let max = -1;
  for (let i = from; i < to; i++) if (side[i]! > max) max = side[i]!;
  const seen = new Uint8Array(max + 1);
  for (let i = from; i < to; i++) seen[side[i]!] = 1;
  return { has: (id) => id >= 0 && id <= max && seen[id] === 1 };
}

/** Whether `side[from..to)` holds only whole numbers from 0 to a few times its length (what interning gives). */
function denseIds(side: ArrayLike<number>, from: number, to: number): boolean {
  const bound = 4 * side.length + 1024;
  for (let i = from; i < to; i++) {
    const id = side[i]!;
    if (!(id >= 0 && id < bound && id === Math.floor(id))) return false;
  }
  return true;
}

/** Lines added and deleted between two texts, as `git diff --numstat` counts them. */
export function countLineChanges(before: string, after: string, maxEdits: number = MAX_EDITS): { additions: number; deletions: number } {
  const [a, b] = internLines(splitLines(before), splitLines(after));
  const matched = matchLines(a, b, maxEdits).length / 2;
  return { additions: b.length - matched, deletions: a.length - matched };
}

/**
 * Myers' shortest edit script as matched pairs, or null when it needs more than `maxEdits` edits;
 * sides with nothing in common are answered at once, whatever the budget.
 */
export function myersMatches(a: ArrayLike<number>, b: ArrayLike<number>, maxEdits: number): number[] | null {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [];
  const floor = editFloor(a, b);
  if (floor === n + m) return [];
  if (floor > maxEdits) return null;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
      let x = down ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return walkBack(trace, n, m);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return null;
}

/** The matched pairs of the path the frontiers in `trace` found, from (0, 0) to (n, m). */
function walkBack(trace: Int32Array[], n: number, m: number): number[] {
  // d edits leave (n + m - d) / 2 matches: the pairs are written once, from the end.
  const pairs: number[] = new Array<number>(n + m - (trace.length - 1));
  let out = pairs.length;
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1]!;
    const at = (k: number): number => prev[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const startX = down ? prevX : prevX + 1;
    for (let i = x - 1; i >= startX; i--) {
      pairs[--out] = i - k;
      pairs[--out] = i;
    }
    x = prevX;
    y = prevX - prevK;
  }
  for (let i = x - 1; i >= 0; i--) {
    pairs[--out] = i;
    pairs[--out] = i;
  }
  return pairs;
}

/** A lower bound on the edits between `a` and `b`: what one side has more often than the other must go or come. */
function editFloor(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let total = 0;
  if (denseIds(a, 0, a.length) && denseIds(b, 0, b.length)) {
    // Dense interned ids: a counter per id, as presence() does, instead of a Map.
    let max = -1;
    for (let i = 0; i < a.length; i++) if (a[i]! > max) max = a[i]!;
    for (let j = 0; j < b.length; j++) if (b[j]! > max) max = b[j]!;
    const balance = new Int32Array(max + 1);
    for (let i = 0; i < a.length; i++) balance[a[i]!]!++;
    for (let j = 0; j < b.length; j++) balance[b[j]!]!--;
    for (let id = 0; id <= max; id++) total += Math.abs(balance[id]!);
    return total;
  }
  const balance = new Map<number, number>();
  for (let i = 0; i < a.length; i++) balance.set(a[i]!, (balance.get(a[i]!) ?? 0) + 1);
  for (let j = 0; j < b.length; j++) balance.set(b[j]!, (balance.get(b[j]!) ?? 0) - 1);
  for (const count of balance.values()) total += Math.abs(count);
  return total;
}

/**
 * Matches for sides too far apart for Myers: lines unique to both sides, in an order both keep
 * (patience), anchor the match; each stretch between anchors gets Myers within the budget, or no
 * matches when even that is too costly (noted in `notes`).
 */
export function anchoredMatches(a: readonly number[], b: readonly number[], maxEdits: number, notes?: MatchNotes): number[] {
  const anchors = uniqueAnchors(a, b);
  const out: number[] = [];
  let ai = 0;
  let bi = 0;
  anchors.push(a.length, b.length);
  for (let p = 0; p < anchors.length; p += 2) {
    const ax = anchors[p]!;
    const bx = anchors[p + 1]!;
    let stretch = myersMatches(a.slice(ai, ax), b.slice(bi, bx), maxEdits);
    if (stretch === null) {
      stretch = [];
      if (notes) notes.approximate = true;
    }
    for (let q = 0; q < stretch.length; q += 2) out.push(ai + stretch[q]!, bi + stretch[q + 1]!);
    if (ax < a.length) out.push(ax, bx);
    ai = ax + 1;
    bi = bx + 1;
  }
  return out;
}

/** Pairs [i, j, ...] of lines unique on both sides, reduced to their longest chain increasing on both. */
export function uniqueAnchors(a: readonly number[], b: readonly number[]): number[] {
  const once = (side: readonly number[]): Map<number, number> => {
    const at = new Map<number, number>();
    side.forEach((id, i) => at.set(id, at.has(id) ? -1 : i));
    return at;
  };
  const onceA = once(a);
  const onceB = once(b);
  const pairs: Array<[number, number]> = [];
  for (const [id, i] of onceA) {
    const j = onceB.get(id);
    if (i !== -1 && j !== undefined && j !== -1) pairs.push([i, j]);
  }
  pairs.sort((p, q) => p[0] - q[0]);
  // Patience sorting: the longest subsequence whose second members increase.
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  pairs.forEach(([, j], k) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1]!;
    tails[lo] = k;
  });
  const chain: number[] = [];
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k !== -1; k = prev[k]!) chain.push(pairs[k]![1], pairs[k]![0]);
  return chain.reverse();
}

/**
 * This module's functions as one script, for a worker thread to evaluate: the bundled CLI has no
 * file of its own for a worker. Callers there pass `maxEdits`, so no default refers to a constant.
 */
export function lineMatchSource(): string {
  return [splitLines, internLines, matchLines, presence, denseIds, countLineChanges, myersMatches, walkBack, editFloor, anchoredMatches, uniqueAnchors].map(String).join('\n');
}
