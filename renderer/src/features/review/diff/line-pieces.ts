/**
 * The last cut of a drawn line: its segments (syntax and word changes) cut again where find
 * matches start and end, and around hidden bidirectional characters, which are drawn as markers.
 */
import { BIDI_CHAR } from './bidi.ts';
import type { Segment } from './tokens.ts';
import type { Range } from './word-diff.ts';

/** How a piece takes part in find: not at all, a match, or the current match. */
export type HitKind = 'none' | 'match' | 'current';

/** A segment piece: `bidi` pieces are one control character, drawn as a visible marker. */
export interface Piece extends Segment {
  hit: HitKind;
  bidi: boolean;
}

/**
 * Cuts `segments` (which spell the line from position 0) at the boundaries of `hits` (sorted,
 * not overlapping) and around bidirectional characters. `current` is the start of the current
 * match in this line, or -1.
 */
export function linePieces(segments: readonly Segment[], hits: readonly Range[] | null, current = -1): Piece[] {
  const ranges = hits ?? [];
  const pieces: Piece[] = [];
  let pos = 0;
  let r = 0;
  for (const segment of segments) {
    const text = segment.text;
    let run = '';
    let runHit: HitKind = 'none';
    const flush = () => {
      if (run) pieces.push({ ...segment, text: run, hit: runHit, bidi: false });
      run = '';
    };
    for (let i = 0; i < text.length; i++) {
      const at = pos + i;
      while (r < ranges.length && (ranges[r] as Range).end <= at) r++;
      const range = ranges[r];
      const hit: HitKind =
        range && range.start <= at ? (range.start === current ? 'current' : 'match') : 'none';
      const char = text[i] as string;
      if (BIDI_CHAR.test(char)) {
        flush();
        pieces.push({ ...segment, text: char, hit, bidi: true });
        continue;
      }
      if (hit !== runHit) {
        flush();
        runHit = hit;
      }
      run += char;
    }
    flush();
    pos += text.length;
  }
  return pieces;
}

/** Whether a line needs cutting at all (the common case draws its segments as they are). */
export function needsPieces(text: string, hits: readonly Range[] | null | undefined): boolean {
  return (hits != null && hits.length > 0) || BIDI_CHAR.test(text);
}
