/**
 * File names as bytes. Paths in change lists are strings; a byte that is not part of valid UTF-8
 * is kept as the lone surrogate U+DC80..U+DCFF (Python's "surrogateescape"), so every name on
 * disk round-trips exactly, survives JSON, and common names stay plain strings.
 */
import path from 'node:path';
import { ESCAPE_BASE, hasEscapes } from '../../../shared/display-path.ts';

export { displayPath, hasEscapes } from '../../../shared/display-path.ts';

/** Decodes raw name bytes, escaping bytes that are not valid UTF-8. */
export function decodeName(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (!text.includes('\uFFFD') || Buffer.from(text, 'utf8').equals(bytes)) return text;
  let out = '';
  let index = 0;
  while (index < bytes.length) {
    const length = utf8SequenceLength(bytes, index);
    if (length === 0) {
      out += String.fromCharCode(ESCAPE_BASE + (bytes[index] as number));
      index += 1;
    } else {
      out += bytes.toString('utf8', index, index + length);
      index += length;
    }
  }
  return out;
}

/** Encodes a name back to its exact bytes. */
export function encodeName(text: string): Buffer {
  if (!hasEscapes(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xdc80 && code <= 0xdcff) {
      if (run) parts.push(Buffer.from(run, 'utf8'));
      run = '';
      parts.push(Buffer.from([code - ESCAPE_BASE]));
    } else run += char;
  }
  if (run) parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** An absolute path for fs calls: a plain string, or bytes when the relative part has escapes. */
export function inRoot(root: string, relPath: string): string | Buffer {
  if (relPath === '') return root;
  if (!hasEscapes(relPath)) return path.join(root, relPath);
  return Buffer.concat([Buffer.from(root.endsWith(path.sep) ? root : root + path.sep, 'utf8'), encodeName(relPath)]);
}


function utf8SequenceLength(bytes: Buffer, index: number): number {
  const first = bytes[index] as number;
  if (first < 0x80) return 1;
  let length: number;
  let min: number;
  if (first >= 0xc2 && first <= 0xdf) [length, min] = [2, 0x80];
  else if (first >= 0xe0 && first <= 0xef) [length, min] = [3, 0x800];
  else if (first >= 0xf0 && first <= 0xf4) [length, min] = [4, 0x10000];
  else return 0;
  if (index + length > bytes.length) return 0;
  let code = first & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) {
    const next = bytes[index + k] as number;
    if ((next & 0xc0) !== 0x80) return 0;
    code = (code << 6) | (next & 0x3f);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return length;
}
