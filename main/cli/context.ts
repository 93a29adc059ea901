/** What every command gets: output, and the core opened lazily over the chosen data directory. */
import { openBindery, type Bindery } from '../services/bindery.ts';
import { resolveDataDir } from '../services/data-dir.ts';
import type { Output } from './output.ts';

/** Per-invocation state shared by commands. */
export class CliContext {
  private opened: Bindery | undefined;

  constructor(
    readonly output: Output,
    private readonly dataDirFlag: string | undefined,
    readonly readStdin: () => Promise<string>,
  ) {}

  /** The data directory this invocation uses. */
  get dataDir(): string {
    return resolveDataDir({ flag: this.dataDirFlag });
  }

  /** The open core (opened on first use). */
  bindery(): Bindery {
    this.opened ??= openBindery(this.dataDir);
    return this.opened;
  }

  /** Closes what was opened. */
  close(): void {
    this.opened?.close();
    this.opened = undefined;
  }
}
