/** What every command gets: output, and the core opened lazily over the chosen data directory. */
import type { Command } from 'commander';
import type { Bindery } from '../services/bindery.ts';
import { resolveDataDir } from '../services/data-dir.ts';
import type { Output } from './output.ts';

/** Commands that open the core themselves, and so skip beforeCommand. */
const OPENS_ITSELF = new Set(['doctor']);

/** Per-invocation state shared by commands. */
export class CliContext {
  private opened: Bindery | undefined;
  private open: ((dataDir: string) => Bindery) | undefined;

  constructor(
    readonly output: Output,
    private readonly dataDirFlag: string | undefined,
    readonly readStdin: () => Promise<string>,
  ) {}

  /** The data directory this invocation uses. */
  get dataDir(): string {
    return resolveDataDir({ flag: this.dataDirFlag });
  }

  /** Loads the core's code, which `bindery --version` and `--help` never need (start-up time). */
  async load(): Promise<void> {
    this.open ??= (await import('../services/bindery.ts')).openBindery;
  }

  /** The open core (opened on first use; load() must have run). */
  bindery(): Bindery {
    if (!this.open) throw new Error('CliContext.load() must run before a command uses the core');
    this.opened ??= this.open(this.dataDir);
    return this.opened;
  }

  /**
   * Runs before every command but those that open the core themselves (doctor, to report why it
   * cannot): opens the core and finishes or undoes interrupted work first, noting what it did.
   */
  async beforeCommand(command: Command): Promise<void> {
    let top = command;
    while (top.parent?.parent) top = top.parent;
    if (OPENS_ITSELF.has(top.name())) return;
    await this.load();
    const recovery = await this.bindery().start();
    if (recovery.report === null && recovery.error === null) return;
    const { summarizeStartRecovery } = await import('../services/recovery-summary.ts');
    const summary = summarizeStartRecovery(recovery);
    if (summary.acted || !summary.ok) this.output.note(summary.ok ? summary.detail : `${summary.detail} Run "bindery doctor" for details.`);
  }

  /** Closes what was opened. */
  close(): void {
    this.opened?.close();
    this.opened = undefined;
  }
}
