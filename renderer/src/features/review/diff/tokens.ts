/**
 * What a rendered line is made of: syntax tokens cut at word-change boundaries, so a span can carry
 * both its highlight.js class and the "changed word" mark.
 */
import type { Range } from './word-diff.ts';

/** A run of text with its highlight.js classes ('' for plain text). */
export interface Token {
  text: string;
  cls: string;
}

/** A token of a rendered line, marked when it lies inside a word-level change. */
export interface Segment extends Token {
  changed: boolean;
}

/**
 * Merges a line's syntax tokens with its changed ranges. Tokens that do not spell the line exactly
 * (a highlighter disagreement) are ignored and the line is shown plain, so text is never lost.
 */
export function lineSegments(
  text: string,
  tokens: readonly Token[] | null | undefined,
  ranges: readonly Range[] | null | undefined,
): Segment[] {
  const base: readonly Token[] = tokens && spells(tokens, text) ? tokens : [{ text, cls: '' }];
  if (!ranges || ranges.length === 0)
    return base.filter((t) => t.text).map((t) => ({ text: t.text, cls: t.cls, changed: false }));
  const segments: Segment[] = [];
  let pos = 0;
  let r = 0;
  for (const token of base) {
    let offset = 0;
    while (offset < token.text.length) {
      const at = pos + offset;
      while (r < ranges.length && (ranges[r] as Range).end <= at) r++;
      const range = ranges[r];
      const inside = range !== undefined && range.start <= at;
      const boundary = range === undefined ? Infinity : inside ? range.end : range.start;
      const take = Math.min(token.text.length - offset, boundary - at);
      push(segments, { text: token.text.slice(offset, offset + take), cls: token.cls, changed: inside });
      offset += take;
    }
    pos += token.text.length;
  }
  return segments;
}

function spells(tokens: readonly Token[], text: string): boolean {
  let pos = 0;
  for (const token of tokens) {
    if (!text.startsWith(token.text, pos)) return false;
    pos += token.text.length;
  }
  return pos === text.length;
}

function push(segments: Segment[], segment: Segment): void {
  const last = segments[segments.length - 1];
  if (last && last.cls === segment.cls && last.changed === segment.changed) last.text += segment.text;
  else segments.push(segment);
}
