/**
 * How a path that is not valid UTF-8 reads on screen. The engine keeps each such byte as a lone
 * surrogate U+DC80..U+DCFF (Python's "surrogateescape"); people see it as `\xNN`.
 */

/** The surrogate an escaped byte 0xNN is kept as is ESCAPE_BASE + 0xNN. */
export const ESCAPE_BASE = 0xdc00;

/** A UTF-16 unit of an escaped byte (a regular expression scans far faster than a loop of charCodeAt). */
const ESCAPED_UNIT = /[\uDC80-\uDCFF]/;

/** True when `text` holds an escaped byte and needs the byte form to reach the disk. */
export function hasEscapes(text: string): boolean {
  return ESCAPED_UNIT.test(text);
}

/** The path as people read it: each escaped byte as `\xNN`. */
export function displayPath(relPath: string): string {
  if (!hasEscapes(relPath)) return relPath;
  let out = '';
  for (const char of relPath) {
    const code = char.charCodeAt(0);
    out += char.length === 1 && code >= 0xdc80 && code <= 0xdcff ? `\\x${(code - ESCAPE_BASE).toString(16)}` : char;
  }
  return out;
}
