/**
 * A unified diff (the `---`/`+++` headers and `@@` hunks git writes) from line-diff.ts's bounded
 * match, so one reformatted file costs milliseconds, not seconds.
 */
import { internLines, matchLines, splitLines } from './line-diff.ts';

const EQ = 0;
const DEL = 1;
const ADD = 2;

/** The patch of `before` → `after` with `context` lines around each change, and its line counts. */
export function unifiedPatch(oldName: string, newName: string, before: string, after: string, context = 3): { patch: string; additions: number; deletions: number } {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const [a, b] = internLines(oldLines, newLines);
  const matches = matchLines(a, b);
  // Each op: its kind and the old and new line positions before it.
  const kinds: number[] = [];
  const olds: number[] = [];
  const news: number[] = [];
  let i = 0;
  let j = 0;
  const emit = (kind: number): void => {
    kinds.push(kind);
    olds.push(i);
    news.push(j);
    if (kind !== ADD) i++;
    if (kind !== DEL) j++;
  };
  for (let p = 0; p <= matches.length; p += 2) {
    const mi = p < matches.length ? matches[p]! : a.length;
    const mj = p < matches.length ? matches[p + 1]! : b.length;
    while (i < mi) emit(DEL);
    while (j < mj) emit(ADD);
    if (p < matches.length) emit(EQ);
  }
  const out: string[] = [`--- ${oldName}`, `+++ ${newName}`];
  let additions = 0;
  let deletions = 0;
  let k = 0;
  while (k < kinds.length) {
    while (k < kinds.length && kinds[k] === EQ) k++;
    if (k >= kinds.length) break;
    const start = Math.max(0, k - context);
    let last = k;
    let p = k;
    while (p < kinds.length) {
      if (kinds[p] !== EQ) {
        last = p++;
        continue;
      }
      let q = p;
      while (q < kinds.length && kinds[q] === EQ) q++;
      // Changes this close share a hunk, as git and jsdiff join them.
      if (q >= kinds.length || q - p > 2 * context) break;
      p = q;
    }
    const stop = Math.min(kinds.length, last + 1 + context);
    let oldCount = 0;
    let newCount = 0;
    const body: string[] = [];
    for (let s = start; s < stop; s++) {
      const kind = kinds[s]!;
      const line = kind === ADD ? newLines[news[s]!]! : oldLines[olds[s]!]!;
      if (kind !== ADD) oldCount++;
      if (kind !== DEL) newCount++;
      if (kind === ADD) additions++;
      if (kind === DEL) deletions++;
      const ended = line.endsWith('\n');
      body.push(`${kind === EQ ? ' ' : kind === DEL ? '-' : '+'}${ended ? line.slice(0, -1) : line}`);
      if (!ended) body.push('\\ No newline at end of file');
    }
    const oldStart = oldCount === 0 ? olds[start]! : olds[start]! + 1;
    const newStart = newCount === 0 ? news[start]! : news[start]! + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`, ...body);
    k = stop;
  }
  return { patch: `${out.join('\n')}\n`, additions, deletions };
}
