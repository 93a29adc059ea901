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
  return likeness(x, bigrams(x), y, bigrams(y));
}

/**
 * The character bigrams of a trimmed line as sorted numbers: counting the ones two lines share is
 * then a merge, and a block's lines are read once, not once per pair (a reformatted file has
 * hundreds of small blocks to align).
 */
function bigrams(x: string): Float64Array {
  const grams = new Float64Array(Math.max(0, x.length - 1));
  for (let i = 0; i < x.length - 1; i++) grams[i] = x.charCodeAt(i) * 65536 + x.charCodeAt(i + 1);
  return grams.sort();
}

/** The likeness of trimmed lines `x` and `y` from their bigrams. */
function likeness(x: string, gx: Float64Array, y: string, gy: Float64Array): number {
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  let shared = 0;
  for (let i = 0, j = 0; i < gx.length && j < gy.length; ) {
    if (gx[i]! < gy[j]!) i++;
    else if (gx[i]! > gy[j]!) j++;
    else {
      shared++;
      i++;
      j++;
    }
  }
  return (2 * shared) / (gx.length + gy.length);
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
  // A side with no lines has nothing to pair: an added file's block must not cost a bigram per line.
  const pairable = n > 0 && m > 0 && (n > 1 || m > 1) && n * m <= MAX_ALIGN_CELLS;
  const matches = pairable ? bestMatches(oldLines, newLines) : [];
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
  const oldTrimmed = oldLines.map((line) => line.trim());
  const newTrimmed = newLines.map((line) => line.trim());
  const oldGrams = oldTrimmed.map(bigrams);
  const newGrams = newTrimmed.map(bigrams);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const s = likeness(oldTrimmed[i - 1]!, oldGrams[i - 1]!, newTrimmed[j - 1]!, newGrams[j - 1]!);
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
