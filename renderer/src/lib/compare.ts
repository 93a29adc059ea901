/**
 * The grid's sort order: numbers by value, everything else as case-insensitive text, empty
 * values last. Cheaper than react-table's default "alphanumeric" order, which splits every
 * string on each comparison and made sorting 10,000 rows take a visible moment.
 */

/** Negative, zero or positive, like any comparator. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = a === null || a === undefined ? '' : String(a).toLowerCase();
  const right = b === null || b === undefined ? '' : String(b).toLowerCase();
  if (left === right) return 0;
  if (left === '') return 1;
  if (right === '') return -1;
  return left < right ? -1 : 1;
}
