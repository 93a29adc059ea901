/**
 * Splits a text into lines the way the line differ tokenizes it, keeping what the viewer must
 * show about line endings: CRLF, and a last line without a newline.
 */

/** One line of a text, without its line ending. */
export interface SourceLine {
  text: string;
  /** The line ends in \r\n (shown, since it is otherwise invisible). */
  crlf: boolean;
  /** The last line of a text that does not end with a newline. */
  noEol: boolean;
}

/** The lines of `text`; an empty text has none. A lone \r stays inside its line, as in jsdiff. */
export function splitLines(text: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) {
      lines.push({ text: text.slice(start), crlf: false, noEol: true });
      break;
    }
    const crlf = nl > start && text.charCodeAt(nl - 1) === 13;
    lines.push({ text: text.slice(start, crlf ? nl - 1 : nl), crlf, noEol: false });
    start = nl + 1;
  }
  return lines;
}

/** The line-ending style of a text, for the file header. */
export type EolStyle = 'lf' | 'crlf' | 'mixed' | 'none';

/** Which line endings `lines` use ('none' for zero or one unterminated line). */
export function eolStyle(lines: readonly SourceLine[]): EolStyle {
  let lf = 0;
  let crlf = 0;
  for (const line of lines) {
    if (line.noEol) continue;
    if (line.crlf) crlf++;
    else lf++;
  }
  if (lf && crlf) return 'mixed';
  if (crlf) return 'crlf';
  return lf ? 'lf' : 'none';
}

/** Display columns of a line with tabs expanded to `tabSize` stops (sizes the horizontal scroll). */
export function displayColumns(text: string, tabSize = 4): number {
  let col = 0;
  for (let i = 0; i < text.length; i++) {
    col = text.charCodeAt(i) === 9 ? col + tabSize - (col % tabSize) : col + 1;
  }
  return col;
}
