/**
 * Seeded random edits of small texts for the tests of patch-selection: repeated lines (so the
 * diff has choices to make), CRLF and mixed endings, missing last newlines, empty files.
 */
import { changeKey, type ChangeKey, type FilePatch, type LineRange } from './patch-selection.ts';

/** One generated case: a text, an edit of it, and a random part of the edit's changed lines. */
export interface EditSample {
  original: string;
  modified: string;
}

export { seededRandom } from './seeded-random.ts';

const WORDS = ['alpha', 'beta', 'gamma', '', '}', '  return x;', 'delta', 'épsilon ✓', '\tindent', 'beta'];

/** An original text and an edit of it, made with `random`. */
export function editSample(random: () => number): EditSample {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const style = pick(['lf', 'lf', 'crlf', 'mixed'] as const);
  const eol = () => (style === 'lf' ? '\n' : style === 'crlf' ? '\r\n' : pick(['\n', '\r\n']));
  const count = random() < 0.1 ? 0 : Math.floor(random() * 24) + 1;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(pick(WORDS) + eol());
  const original = withoutLastNewline(lines.join(''), random() < 0.25);

  const edited = [...lines];
  const edits = Math.floor(random() * 6) + (count === 0 ? 1 : 0);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (edited.length + 1));
    const what = random();
    if (what < 0.3 && at < edited.length) edited.splice(at, 1 + Math.floor(random() * 3));
    else if (what < 0.6) edited.splice(at, 0, ...Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(WORDS) + eol()));
    else if (what < 0.85 && at < edited.length) edited[at] = `${pick(WORDS)} ${e}${eol()}`;
    else if (at < edited.length) edited[at] = (edited[at] as string).replace(/\r?\n$/, (end) => (end === '\n' ? '\r\n' : '\n'));
  }
  const lastFlip = random() < 0.2;
  const originalHadNoEol = original.length > 0 && !original.endsWith('\n');
  const modified = withoutLastNewline(edited.join(''), lastFlip ? !originalHadNoEol : originalHadNoEol);
  return { original, modified };
}

/** A random subset of the patch's changed lines. */
export function randomChoice(patch: FilePatch, random: () => number): ChangeKey[] {
  const keys: ChangeKey[] = [];
  const density = random();
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      const key = changeKey(line);
      if (key && random() < density) keys.push(key);
    }
  }
  return keys;
}

function withoutLastNewline(text: string, strip: boolean): string {
  return strip ? text.replace(/\r?\n$/, '') : text;
}

/** The exact line range of one changed line, by its side. */
export function keyRange(key: ChangeKey): LineRange {
  const no = Number(key.slice(1));
  return { side: key.startsWith('-') ? 'old' : 'new', from: no, to: no };
}
