/** Number, size and mode formatting for the diff viewer's headers and binary summaries. */
import { formatNumber } from '../../../lib/counts.ts';

/** A count with thousands separators ("48,213"), the same in every locale so screenshots and tests agree. */
export function formatCount(n: number): string {
  return formatNumber(n);
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** A byte size in binary units with one decimal where useful ("812 B", "1.5 KB", "12 MB"). */
export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const text = value.toFixed(digits).replace(/\.0$/, '');
  return `${sign}${text} ${UNITS[unit]}`;
}

/** The change between two sizes ("+1.2 KB (+15%)", "−300 B (−3%)", "no size change"); null sides count as 0. */
export function formatSizeDelta(oldSize: number | null, newSize: number | null): string {
  const before = oldSize ?? 0;
  const after = newSize ?? 0;
  const delta = after - before;
  if (delta === 0) return 'no size change';
  const sign = delta > 0 ? '+' : '\u2212';
  const size = `${sign}${formatBytes(Math.abs(delta))}`;
  if (before === 0 || after === 0) return size;
  const percent = Math.round((Math.abs(delta) / before) * 100);
  return `${size} (${sign}${percent < 1 ? '<1' : percent}%)`;
}

/** A POSIX mode in git's octal spelling ("100644", "100755", "120000"). */
export function formatMode(mode: number): string {
  return mode.toString(8).padStart(6, '0');
}

/** A rename split for display: the shared directory prefix once, then the old and new remainders. */
export interface RenameParts {
  prefix: string;
  from: string;
  to: string;
}

/** Splits `oldPath -> newPath` at their common directory ("src/{a.ts -> b.ts}"), as git prints renames. */
export function renameParts(oldPath: string, newPath: string): RenameParts {
  let cut = 0;
  for (let i = 0; i < Math.min(oldPath.length, newPath.length); i++) {
    if (oldPath[i] !== newPath[i]) break;
    if (oldPath[i] === '/') cut = i + 1;
  }
  return { prefix: oldPath.slice(0, cut), from: oldPath.slice(cut), to: newPath.slice(cut) };
}
