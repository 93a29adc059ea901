/**
 * Syntax tokens of every line of a text, packed in typed arrays: a worker hands them over without
 * copying (transfer), and the main thread cuts a line's tokens out of the line's own text only
 * when that line is drawn. Unpacking 10,000 lines of token objects at once blocked the main thread.
 */
import type { Token } from './tokens.ts';

/** The packed tokens: per line a range of tokens, per token its end column and class. */
export interface TokenTable {
  /** Class strings; index 0 is plain text (''). */
  classes: string[];
  /** Token index where line i starts; one more entry than there are lines. */
  lineStarts: Int32Array;
  /** End column (UTF-16 units, within its line) of each token. */
  ends: Int32Array;
  /** Index into `classes` of each token. */
  classIds: Int32Array;
}

/** Builds a TokenTable line by line. */
export class TokenTableBuilder {
  private readonly classes = [''];
  private readonly classIndex = new Map<string, number>([['', 0]]);
  private readonly lineStarts: number[] = [0];
  private readonly ends: number[] = [];
  private readonly classIds: number[] = [];
  private column = 0;

  /** Appends `length` characters of class `cls` to the current line. */
  add(length: number, cls: string): void {
    if (length <= 0) return;
    let id = this.classIndex.get(cls);
    if (id === undefined) {
      id = this.classes.length;
      this.classes.push(cls);
      this.classIndex.set(cls, id);
    }
    this.column += length;
    const last = this.ends.length - 1;
    if (last >= (this.lineStarts[this.lineStarts.length - 1] as number) && this.classIds[last] === id) {
      this.ends[last] = this.column;
    } else {
      this.ends.push(this.column);
      this.classIds.push(id);
    }
  }

  /** Ends the current line and starts the next. */
  newLine(): void {
    this.lineStarts.push(this.ends.length);
    this.column = 0;
  }

  /** The finished table (the current line counts as the last one). */
  finish(): TokenTable {
    return {
      classes: this.classes,
      lineStarts: Int32Array.from([...this.lineStarts, this.ends.length]),
      ends: Int32Array.from(this.ends),
      classIds: Int32Array.from(this.classIds),
    };
  }
}

/** Number of lines in a table. */
export function tableLines(table: TokenTable): number {
  return table.lineStarts.length - 1;
}

/**
 * The tokens of line `line` cut from its `text`, or null when the table has no such line or its
 * tokens do not cover the text exactly (a highlighter disagreement: the line is then drawn plain).
 */
export function lineTokens(table: TokenTable | null | undefined, line: number, text: string): Token[] | null {
  if (!table || line < 0 || line >= tableLines(table)) return null;
  const from = table.lineStarts[line] as number;
  const to = table.lineStarts[line + 1] as number;
  const lastEnd = to > from ? (table.ends[to - 1] as number) : 0;
  if (lastEnd !== text.length) return null;
  const tokens: Token[] = [];
  let start = 0;
  for (let t = from; t < to; t++) {
    const end = table.ends[t] as number;
    tokens.push({ text: text.slice(start, end), cls: table.classes[table.classIds[t] as number] ?? '' });
    start = end;
  }
  return tokens;
}

/** The buffers to transfer with a table in postMessage. */
export function tableBuffers(table: TokenTable): ArrayBuffer[] {
  return [table.lineStarts.buffer, table.ends.buffer, table.classIds.buffer] as ArrayBuffer[];
}
