/**
 * How the CLI speaks: JSON (reference field names) with `--json`, else short readable text and
 * aligned tables. Failures are one line of cause and remedy; stack traces never reach users.
 */
import { BinderyError, type ErrorPayload } from '../../shared/errors.ts';
import { toWire } from '../core/codec.ts';

/** Where output goes; a test passes its own sinks. */
export interface Sinks {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Output for one CLI invocation. */
export class Output {
  /** Set by a command that printed its result but must still exit non-zero (doctor). */
  failed = false;
  /** Set by a command that exits with a code of its own (plans run: the tool's). */
  exitCode: number | undefined;

  constructor(
    readonly json: boolean,
    private readonly sinks: Sinks,
  ) {}

  /** Prints a result: `wire` as JSON in JSON mode, else the human text. */
  result(wire: unknown, human: () => string): void {
    if (this.json) this.sinks.out(`${JSON.stringify(wire, null, 2)}\n`);
    else {
      const text = human();
      if (text) this.sinks.out(text.endsWith('\n') ? text : `${text}\n`);
    }
  }

  /** Prints raw text (diffs, exported files) in either mode. */
  raw(text: string): void {
    this.sinks.out(text);
  }

  /** Raw text on stderr (a tool's own error output, passed through). */
  rawError(text: string): void {
    this.sinks.err(text);
  }

  /** A progress or warning line on stderr (never in JSON mode's stdout). */
  note(text: string): void {
    this.sinks.err(`${text}\n`);
  }

  /** Prints a failure and returns the exit code for it. */
  failure(error: unknown): number {
    const payload = toPayload(error);
    if (this.json) this.sinks.out(`${JSON.stringify({ error: toWire(payload) }, null, 2)}\n`);
    else this.sinks.err(`bindery: ${payload.message}\n`);
    return payload.code === 'usage' ? 2 : 1;
  }
}

function toPayload(error: unknown): ErrorPayload {
  if (error instanceof BinderyError) return error.toPayload();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: `Unexpected failure: ${message}. Run "bindery doctor" and report this if it persists.` };
}

/** Lays out rows as an aligned text table with a header. */
export function table(headers: string[], rows: Array<Array<string | number | null | undefined>>, empty = '(none)'): string {
  if (rows.length === 0) return empty;
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '-' : String(cell))))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `key: value` lines with aligned values. */
export function fields(pairs: Array<[string, string | number | boolean | null | undefined]>): string {
  const width = Math.max(...pairs.map(([key]) => key.length));
  return pairs.map(([key, value]) => `${`${key}:`.padEnd(width + 2)}${value === null || value === undefined || value === '' ? '-' : String(value)}`).join('\n');
}
