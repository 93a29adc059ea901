/**
 * The journal of one transaction on disk: `<journalDir>/<txid>/journal.json` plus a `backup/`
 * folder holding the files it overwrote or deleted. Every state change is an atomic, fsync'd
 * rewrite, so after a crash the journal says exactly which protocol phase was reached.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monotonicFactory } from 'ulid';
import { BinderyError, NotFoundError } from '../../../shared/errors.ts';
import { fsyncDir, writeJsonDurable } from './durable-fs.ts';
import type { RecordedState } from './entry-state.ts';
import { absoluteIn } from './safe-path.ts';

/** Prefix of every temporary file Bindery puts in a target folder, so people (and recovery) know it. */
export const TEMP_PREFIX = '.bindery-tmp-';

const JOURNAL_FILE = 'journal.json';
const BACKUP_DIR = 'backup';
const STAGING_PREFIX = '.staging-';
const FORMAT = 1;
const TRANSACTION_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Protocol phases. `prepared`: nothing in the target replaced yet (recovery rolls back).
 * `committing`: every new file is staged and durable (recovery rolls forward). `rolling_back` and
 * `undoing`: restoring backups (recovery continues). The rest are final.
 */
export type JournalState = 'prepared' | 'committing' | 'rolling_back' | 'committed' | 'rolled_back' | 'undoing' | 'undone';

/** One op as the journal records it. */
export interface JournalOp {
  index: number;
  relPath: string;
  kind: 'write' | 'delete';
  /** Parent directory relative to the real target root ('' for the root), after symlinks. */
  dirRel: string;
  name: string;
  /** What was there before; a file's bytes are in `backup/<index>`. */
  old: RecordedState;
  /** What the commit puts there; null until staged. */
  next: RecordedState | null;
}

/** The whole journal of a transaction. */
export interface JournalRecord {
  format: number;
  transactionId: string;
  /** The target root with symlinks resolved. */
  targetRoot: string;
  createdAt: string;
  updatedAt: string;
  owner: { pid: number; host: string };
  state: JournalState;
  /** Directories the commit creates, relative to the root, shallowest first. */
  createdDirs: string[];
  ops: JournalOp[];
  /** Paths a rollback or undo left alone because someone changed them meanwhile. */
  untouched?: Array<{ relPath: string; reason: string }>;
}

const FINAL_STATES: readonly JournalState[] = ['committed', 'rolled_back', 'undone'];
const newId = monotonicFactory();

/** A new, time-ordered transaction id. */
export function newTransactionId(): string {
  return newId();
}

/** True when the state needs no recovery. */
export function isFinal(state: JournalState): boolean {
  return FINAL_STATES.includes(state);
}

/** The folder of one transaction. */
export function transactionDir(journalDir: string, transactionId: string): string {
  return path.join(journalDir, transactionId);
}

/** Where the backup of an op's old file lives. */
export function backupPath(journalDir: string, transactionId: string, op: JournalOp): string {
  return path.join(journalDir, transactionId, BACKUP_DIR, String(op.index));
}

/** The absolute path an op changes. */
export function targetPath(record: JournalRecord, op: JournalOp): string {
  return path.join(absoluteIn(record.targetRoot, op.dirRel), op.name);
}

/** The temp file holding an op's new content, beside its target (same filesystem, so rename is atomic). */
export function stagedPath(record: JournalRecord, op: JournalOp): string {
  return path.join(absoluteIn(record.targetRoot, op.dirRel), `${TEMP_PREFIX}${record.transactionId}-${op.index}`);
}

/** The temp file used to put an old version back atomically during rollback or undo. */
export function restoringPath(record: JournalRecord, op: JournalOp): string {
  return `${stagedPath(record, op)}-restore`;
}

/**
 * Creates the transaction folder with its first journal atomically: built under a staging name,
 * then renamed, so a transaction folder never exists without a journal.
 */
export async function createJournal(journalDir: string, record: JournalRecord): Promise<void> {
  await fs.mkdir(journalDir, { recursive: true });
  const staging = path.join(journalDir, `${STAGING_PREFIX}${record.transactionId}`);
  await fs.mkdir(path.join(staging, BACKUP_DIR), { recursive: true });
  await writeJsonDurable(path.join(staging, JOURNAL_FILE), record);
  await fsyncDir(path.join(staging, BACKUP_DIR));
  await fs.rename(staging, transactionDir(journalDir, record.transactionId));
  await fsyncDir(journalDir);
}

/** Records a new state durably before the caller acts on it. */
export async function saveJournal(journalDir: string, record: JournalRecord, state: JournalState): Promise<void> {
  record.state = state;
  record.updatedAt = new Date().toISOString();
  await writeJsonDurable(path.join(transactionDir(journalDir, record.transactionId), JOURNAL_FILE), record);
}

/** Reads a transaction's journal; NotFoundError when there is none. */
export async function readJournal(journalDir: string, transactionId: string): Promise<JournalRecord> {
  let text: string;
  try {
    text = await fs.readFile(path.join(transactionDir(journalDir, transactionId), JOURNAL_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new NotFoundError(`No commit journal ${transactionId} in ${journalDir}: list transactions to see which exist.`);
    }
    throw error;
  }
  const record = JSON.parse(text) as JournalRecord;
  if (record.format !== FORMAT) {
    throw new BinderyError(
      'io_error',
      `Commit journal ${transactionId} has format ${String(record.format)}, which this Bindery cannot read: open it with the version that wrote it.`,
    );
  }
  return record;
}

/** Ids of every transaction folder, oldest first. */
export async function listTransactionIds(journalDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(journalDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter((name) => TRANSACTION_ID.test(name)).sort();
}

/**
 * Removes leftovers of journal creation and purging (`.staging-*`, `.trash-*`). A staging folder
 * never guarded a target change (the target is touched only after the rename), so it is junk;
 * `activeIds` protects those still being created in this process.
 */
export async function sweepJournalLeftovers(journalDir: string, activeIds: ReadonlySet<string>, olderThanMs: number): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(journalDir);
  } catch {
    return;
  }
  for (const name of names) {
    const isTrash = name.startsWith('.trash-');
    if (!isTrash && !name.startsWith(STAGING_PREFIX)) continue;
    if (activeIds.has(name.slice(name.indexOf('-', 1) + 1))) continue;
    const full = path.join(journalDir, name);
    const stat = await fs.lstat(full).catch(() => null);
    if (!stat || (!isTrash && Date.now() - stat.mtimeMs < olderThanMs)) continue;
    await fs.rm(full, { recursive: true, force: true });
  }
}

/** Removes a whole transaction folder: renamed aside first, so a crash never leaves half a journal. */
export async function removeTransaction(journalDir: string, transactionId: string): Promise<void> {
  const trash = path.join(journalDir, `.trash-${transactionId}`);
  await fs.rename(transactionDir(journalDir, transactionId), trash);
  await fsyncDir(journalDir);
  await fs.rm(trash, { recursive: true, force: true });
}

/** Removes the backups of a finished transaction (undo is then no longer possible). */
export async function removeBackups(journalDir: string, transactionId: string): Promise<void> {
  await fs.rm(path.join(transactionDir(journalDir, transactionId), BACKUP_DIR), { recursive: true, force: true });
}

/** Who runs a transaction: recovery leaves journals of live processes alone. */
export function currentOwner(): JournalRecord['owner'] {
  return { pid: process.pid, host: os.hostname() };
}

/** A fresh record in state `prepared`. */
export function newRecord(transactionId: string, targetRoot: string, createdDirs: string[], ops: JournalOp[]): JournalRecord {
  const now = new Date().toISOString();
  return {
    format: FORMAT,
    transactionId,
    targetRoot,
    createdAt: now,
    updatedAt: now,
    owner: currentOwner(),
    state: 'prepared',
    createdDirs,
    ops,
  };
}
