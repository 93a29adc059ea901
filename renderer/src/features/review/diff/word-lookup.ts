/**
 * Word-level changes looked up per rendered line, computed on first use and cached, so only
 * lines that scroll into view pay for word diffing (a rewritten 10,000-line file stays instant).
 */
import { pairedLine, type LineDiff } from './line-diff.ts';
import { wordChanges, type Range, type WordChanges } from './word-diff.ts';

/** A function giving the changed ranges of line `index` of `diff` (null for context or unpaired lines). */
export function wordLookup(diff: LineDiff): (index: number) => Range[] | null {
  const blockOf = new Int32Array(diff.lines.length).fill(-1);
  diff.blocks.forEach((block, b) => blockOf.fill(b, block.start, block.start + block.dels + block.adds));
  const cache = new Map<number, WordChanges | null>();
  return (index) => {
    const block = diff.blocks[blockOf[index] ?? -1];
    if (!block) return null;
    const pair = pairedLine(block, index);
    if (pair < 0) return null;
    const isDel = index < block.start + block.dels;
    const delIndex = isDel ? index : pair;
    let changes = cache.get(delIndex);
    if (changes === undefined) {
      const oldLine = diff.lines[delIndex];
      const newLine = diff.lines[isDel ? pair : index];
      changes = oldLine && newLine ? wordChanges(oldLine.text, newLine.text) : null;
      cache.set(delIndex, changes);
    }
    if (!changes) return null;
    return isDel ? changes.old : changes.new;
  };
}
