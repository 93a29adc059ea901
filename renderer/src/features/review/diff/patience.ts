/**
 * The fallback for diffs too costly to compute exactly: split both sides at lines that occur once
 * on each side and keep their order (patience anchors), then diff the stretches in between.
 */
import { myersDiff, pushRun, type EditRun } from './myers.ts';

/**
 * Patience-style fallback: matches lines unique on both sides, keeps the longest increasing run of
 * those matches as anchors, and diffs the stretches between anchors (a stretch that still needs
 * more than `maxEdits` edits becomes a whole replacement, and the diff is flagged approximate).
 */
export function anchoredDiff(
  a: number[],
  b: number[],
  maxEdits: number,
  state: { approximate: boolean },
): EditRun[] {
  const anchors = uniqueAnchors(a, b);
  const ops: EditRun[] = [];
  let ai = 0;
  let bi = 0;
  for (const [ax, bx] of [...anchors, [a.length, b.length] as const]) {
    const segA = a.slice(ai, ax);
    const segB = b.slice(bi, bx);
    if (segA.length && segB.length) {
      const exact = myersDiff(segA, segB, maxEdits);
      if (exact) {
        for (const op of exact) pushRun(ops, op.kind, op.count);
      } else {
        state.approximate = true;
        pushRun(ops, 'del', segA.length);
        pushRun(ops, 'add', segB.length);
      }
    } else {
      pushRun(ops, 'del', segA.length);
      pushRun(ops, 'add', segB.length);
    }
    if (ax < a.length) pushRun(ops, 'eq', 1);
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
