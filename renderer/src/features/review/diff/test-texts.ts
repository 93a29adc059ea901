/**
 * Seeded text generators for the diff tests: small alphabets of lines so random edits collide,
 * with CRLF lines and missing final newlines mixed in. Shared by the logic tests only.
 */

export { seededRandom } from '../../../../../shared/seeded-random.ts';

const WORDS = ['alpha', 'beta', 'gamma', '\tindented', '', '  }', 'return x;', 'const y = 1;'];

/** A random text of up to `maxLines` lines drawn from a small alphabet. */
export function randomText(random: () => number, maxLines: number): string {
  const count = Math.floor(random() * (maxLines + 1));
  let text = '';
  for (let i = 0; i < count; i++) {
    text += WORDS[Math.floor(random() * WORDS.length)];
    const last = i === count - 1;
    if (last && random() < 0.25) break;
    text += random() < 0.1 ? '\r\n' : '\n';
  }
  return text;
}

/** `text` with a few random line edits (replace, insert, delete), as a person or a tool would make. */
export function mutateText(random: () => number, text: string): string {
  const lines = text.split('\n');
  const edits = 1 + Math.floor(random() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (lines.length + 1));
    const roll = random();
    if (roll < 0.4) lines.splice(at, 1, `${WORDS[Math.floor(random() * WORDS.length)]} edited`);
    else if (roll < 0.7) lines.splice(at, 0, 'inserted line');
    else lines.splice(at, 1);
  }
  return lines.join('\n');
}
