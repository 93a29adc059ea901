/**
 * Which deleted line faces which added line in a change block. Lines are paired by similarity
 * (an order-keeping best match, like an LCS weighted by likeness), so an inserted comment above an
 * edited line does not push the edit out of line with its old version; lines left between matches
 * are paired by position, as GitHub does, to keep the split view compact.
 */

/** Lines at least this alike (0..1) may be matched across the block. */
export const MATCH_THRESHOLD = 0.5;

/** Blocks with more candidate pairs than this are paired by position only (the matching is quadratic). */
export const MAX_ALIGN_CELLS = 2500;

/** Likeness of two lines, 0..1: the Dice coefficient of their character bigrams, ignoring outer whitespace. */
export function similarity(a: string, b: string): number {
  const x = a.trim();
  const y = b.trim();
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i++) {
    const gram = x.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < y.length - 1; i++) {
    const gram = y.slice(i, i + 2);
    const count = grams.get(gram) ?? 0;
    if (count > 0) {
      shared++;
      grams.set(gram, count - 1);
    }
  }
  return (2 * shared) / (x.length - 1 + y.length - 1);
}

/**
 * The rows of a block side by side: [deleted index, added index] pairs in display order, -1 for
 * an empty half. Every deleted and every added line appears exactly once, in its own order.
 */
export function alignBlock(
  oldLines: readonly string[],
  newLines: readonly string[],
): Array<[number, number]> {
  const n = oldLines.length;
  const m = newLines.length;
  const matches = n > 1 || m > 1 ? (n * m <= MAX_ALIGN_CELLS ? bestMatches(oldLines, newLines) : []) : [];
  const rows: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  for (const [mi, mj] of [...matches, [n, m] as [number, number]]) {
    for (let k = 0; k < Math.max(mi - i, mj - j); k++)
      rows.push([i + k < mi ? i + k : -1, j + k < mj ? j + k : -1]);
    if (mi < n && mj < m) rows.push([mi, mj]);
    i = mi + 1;
    j = mj + 1;
  }
  return rows;
}

/** The order-keeping set of pairs with the greatest total likeness, each pair at least MATCH_THRESHOLD alike. */
function bestMatches(oldLines: readonly string[], newLines: readonly string[]): Array<[number, number]> {
  const n = oldLines.length;
  const m = newLines.length;
  const width = m + 1;
  const score = new Float64Array((n + 1) * width);
  const sim = new Float64Array(n * m);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const s = similarity(oldLines[i - 1] as string, newLines[j - 1] as string);
      sim[(i - 1) * m + (j - 1)] = s;
      const diagonal = s >= MATCH_THRESHOLD ? (score[(i - 1) * width + (j - 1)] as number) + s : -1;
      score[i * width + j] = Math.max(
        score[(i - 1) * width + j] as number,
        score[i * width + (j - 1)] as number,
        diagonal,
      );
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const here = score[i * width + j] as number;
    if (here === score[(i - 1) * width + j]) i--;
    else if (here === score[i * width + (j - 1)]) j--;
    else {
      pairs.push([i - 1, j - 1]);
      i--;
      j--;
    }
  }
  return pairs.reverse();
}
