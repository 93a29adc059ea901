/**
 * Hidden bidirectional control characters (U+202A-U+202E, U+2066-U+2069): they reorder how text
 * is displayed, so code can read differently from what it does ("Trojan Source"). The viewer
 * draws each as a visible marker and says so in a banner, as GitHub does.
 */
import type { LineDiff } from './line-diff.ts';

/** One hidden bidirectional control character. */
export const BIDI_CHAR = /[\u202A-\u202E\u2066-\u2069]/;

const BIDI_GLOBAL = /[\u202A-\u202E\u2066-\u2069]/g;

const NAMES: Record<string, string> = {
  '\u202A': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202B': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202C': 'POP DIRECTIONAL FORMATTING',
  '\u202D': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202E': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
};

/** "U+202E" for a character. */
export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** "U+202E RIGHT-TO-LEFT OVERRIDE", the title of a marker. */
export function bidiTitle(char: string): string {
  const name = NAMES[char];
  return name ? `${codePointLabel(char)} ${name}` : codePointLabel(char);
}

/** A stretch of text, or one hidden bidirectional character (`bidi`), for drawing it as a marker. */
export interface BidiPart {
  text: string;
  bidi: boolean;
}

/** Cuts `text` around its hidden bidirectional characters, so none is ever drawn raw. */
export function splitBidi(text: string): BidiPart[] {
  const parts: BidiPart[] = [];
  let from = 0;
  for (const match of text.matchAll(BIDI_GLOBAL)) {
    if (match.index > from) parts.push({ text: text.slice(from, match.index), bidi: false });
    parts.push({ text: match[0], bidi: true });
    from = match.index + 1;
  }
  if (from < text.length || parts.length === 0) parts.push({ text: text.slice(from), bidi: false });
  return parts;
}

/** How many lines of each side hold hidden bidirectional characters, and how many there are. */
export interface BidiCount {
  lines: number;
  chars: number;
}

/** Counts the lines (and characters) of the diff that hold bidirectional control characters. */
export function countBidi(diff: LineDiff): BidiCount {
  let lines = 0;
  let chars = 0;
  for (const line of diff.lines) {
    if (!BIDI_CHAR.test(line.text)) continue;
    lines++;
    chars += line.text.match(BIDI_GLOBAL)?.length ?? 0;
  }
  return { lines, chars };
}
