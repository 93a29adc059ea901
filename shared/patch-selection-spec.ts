/**
 * Parsers of hunk and line selections written as text (`1,3` for hunks, `path:10-14,20` for
 * lines, numbered as the diff shows them), with errors that say how to write them.
 */
import { ValidationError } from './errors.ts';
import type { LineRange } from './patch-selection.ts';

/** The lines chosen in one file. */
export interface LineSpec {
  path: string;
  ranges: LineRange[];
}

// A file never has this many hunks; the bound keeps a typo like 1-9999999999 from spinning.
const MAX_HUNK_RANGE = 100_000;
const RANGE = /^([+-]?)(\d+)(?:-(\d+))?$/;

/** Hunk ids such as `1,3` or `2-4` (1-based, as the diff numbers its hunks), in order, without repeats. */
export function parseHunkIds(text: string): number[] {
  const ids = new Set<number>();
  for (const part of items(text, 'hunks')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part);
    const from = match ? Number(match[1]) : NaN;
    const to = match?.[2] === undefined ? from : Number(match[2]);
    if (!isLineNumber(from) || !isLineNumber(to) || to < from || to - from >= MAX_HUNK_RANGE) {
      throw new ValidationError(
        `"${part}" is not a hunk id: write hunk ids as whole numbers from 1, separated by commas, with ranges like 2-4 (for example 1,3).`,
        { hunks: text },
      );
    }
    for (let id = from; id <= to; id++) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * Lines of one file such as `src/a.ts:10-14,20`. A bare number names a deleted line by its old
 * number and an added line by its new number; `+12-14` names added lines only, `-10` deleted only.
 */
export function parseLineSpec(text: string): LineSpec {
  // The last colon splits, so a path may itself hold colons.
  const colon = text.lastIndexOf(':');
  const path = colon < 0 ? '' : text.slice(0, colon);
  if (path.trim() === '') {
    throw new ValidationError(`"${text}" does not name a file: write the path, a colon and the line numbers (for example src/app.ts:10-14,20).`, {
      lines: text,
    });
  }
  const ranges = items(text.slice(colon + 1), 'lines').map((part): LineRange => {
    const match = RANGE.exec(part);
    const from = match ? Number(match[2]) : NaN;
    const to = match?.[3] === undefined ? from : Number(match[3]);
    if (!isLineNumber(from) || !isLineNumber(to) || to < from) {
      throw new ValidationError(
        `"${part}" in "${text}" is not a line or range: use line numbers from 1 as the diff shows them, like 20 or 10-14, ` +
          'with + before them for added lines only or - for deleted lines only.',
        { lines: text },
      );
    }
    const side = match?.[1] === '+' ? 'new' : match?.[1] === '-' ? 'old' : 'both';
    return { side, from, to };
  });
  return { path, ranges };
}

/** Several line specs merged by path, in first-seen order. */
export function parseLineSpecs(texts: readonly string[]): LineSpec[] {
  const byPath = new Map<string, LineSpec>();
  for (const text of texts) {
    const spec = parseLineSpec(text);
    const seen = byPath.get(spec.path);
    if (seen) seen.ranges.push(...spec.ranges);
    else byPath.set(spec.path, spec);
  }
  return [...byPath.values()];
}

function items(text: string, what: 'hunks' | 'lines'): string[] {
  const example = what === 'hunks' ? '1,3' : 'src/app.ts:10-14,20';
  if (text.trim() === '') {
    throw new ValidationError(`No ${what === 'hunks' ? 'hunk ids' : 'line numbers'} given: write them separated by commas (for example ${example}).`, {
      [what]: text,
    });
  }
  const parts = text.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) {
    throw new ValidationError(`"${text}" has an empty item: separate ${what === 'hunks' ? 'hunk ids' : 'line numbers'} with single commas (for example ${example}).`, {
      [what]: text,
    });
  }
  return parts;
}

function isLineNumber(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1;
}
