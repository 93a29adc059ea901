/**
 * The journal of one transaction on disk: `<journalDir>/<txid>/state-<seq>.json` files plus a
 * `backup/` folder holding the files it overwrote or deleted. Each state change is a new file
 * with the next sequence number, made durable in one round of concurrent fsyncs (the file, its
 * folder, and whatever else the step needs); the newest readable file is the journal. A torn
 * newest file (crash mid-write) is unreadable and so never counts: the previous state stands.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monotonicFactory } from 'ulid';
import { BinderyError, NotFoundError } from '../../../../shared/errors.ts';
import { fsyncDir, fsyncDirs, fsyncFile, removeFile } from './durable-fs.ts';
import type { RecordedState } from './entry-state.ts';
import { diskPath } from './disk-path.ts';
import { absoluteIn } from './safe-path.ts';

/** Prefix of every temporary file Bindery puts in a target folder, so people (and recovery) know it. */
export const TEMP_PREFIX = '.bindery-tmp-';

const STATE_FILE = /^state-(\d{6})\.json$/;
const BACKUP_DIR = 'backup';
const TRASH_PREFIX = '.trash-';
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
  /**
   * What was there before; a file's bytes are in `backup/<index>`. Null in a `prepared` journal
   * written before the targets were looked at: such a journal is only ever rolled back, which
   * removes what the commit made and never needs the old versions (see oldOf).
   */
  old: RecordedState | null;
  /** What the commit puts there; null until staged. */
  next: RecordedState | null;
  /**
   * The identity of the staged file (a rename keeps it): a target with it holds what this very
   * commit wrote, so a rollback may put the old version back; one with the same content but another
   * identity was written by someone else and is left alone. Absent in journals of older versions.
   */
  staged?: FileId;
}

/** A file's or folder's identity on disk: device and inode numbers (decimal strings, as they may exceed 2^53). */
export interface FileId {
  dev: string;
  ino: string;
}

/** The identity of what is at `file` (not following a last symlink), or null when nothing is. */
export function fileIdOf(file: string): FileId | null {
  try {
    const stat = fsSync.lstatSync(diskPath(file), { bigint: true, throwIfNoEntry: false });
    return stat ? { dev: String(stat.dev), ino: String(stat.ino) } : null;
  } catch {
    return null;
  }
}

/** True when both name the same file or folder. */
export function sameFileId(a: FileId | null | undefined, b: FileId | null | undefined): boolean {
  return !!a && !!b && a.dev === b.dev && a.ino === b.ino;
}

/** A folder a commit removes once empty, and the mode to make it again with. */
export interface EmptiedDir {
  rel: string;
  mode: number;
}

/** The whole journal of a transaction. */
export interface JournalRecord {
  format: number;
  /** Sequence number of the state file this record was last written to. */
  seq: number;
  transactionId: string;
  /** The target root with symlinks resolved. */
  targetRoot: string;
  createdAt: string;
  updatedAt: string;
  owner: { pid: number; host: string };
  state: JournalState;
  /** Directories the commit creates, relative to the root, shallowest first. */
  createdDirs: string[];
  /** Directories the commit removes if its ops empty them (see ApplyTransactionInput.removeDirs), deepest first, with their modes. */
  emptiedDirs?: EmptiedDir[];
  ops: JournalOp[];
  /**
   * The identity of each folder the ops land in (by `dirRel`) as the commit found or made it:
   * every step that writes, restores or reads through a folder first checks it is still that one.
   */
  folderIds?: Record<string, FileId>;
  /** Paths a rollback or undo left alone because someone changed them meanwhile. */
  untouched?: Array<{ relPath: string; reason: string }>;
  /** The committer's labels (ApplyTransactionInput.labels). */
  labels?: Record<string, string>;
}

const FINAL_STATES: readonly JournalState[] = ['committed', 'rolled_back', 'undone'];
// Made on first use: making it looks up a random source (Web Crypto), milliseconds that a
// command which only reads journals (every start's recovery look) need not pay.
let newId: ReturnType<typeof monotonicFactory> | undefined;

/** A new, time-ordered transaction id. */
export function newTransactionId(): string {
  newId ??= monotonicFactory();
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

/** What was at an op's path before the commit: known from the check on, which every step past `prepared` follows. */
export function oldOf(op: JournalOp): RecordedState {
  if (op.old === null) throw new Error(`Commit op ${JSON.stringify(op.relPath)} has no recorded old state: its target was never checked.`);
  return op.old;
}

/** Per record, the absolute folder of each `dirRel`: a commit asks for its ops' paths many times. */
const folders = new WeakMap<JournalRecord, Map<string, string>>();

/** The absolute folder an op's path lands in. */
export function folderOf(record: JournalRecord, op: JournalOp): string {
  let known = folders.get(record);
  if (!known) folders.set(record, (known = new Map()));
  let folder = known.get(op.dirRel);
  if (folder === undefined) known.set(op.dirRel, (folder = absoluteIn(record.targetRoot, op.dirRel)));
  return folder;
}

/** `name` inside `folder`; a recorded name is one plain segment, so no normalizing is needed. */
function inFolder(folder: string, name: string): string {
  return folder.endsWith(path.sep) ? folder + name : folder + path.sep + name;
}

/** The absolute path an op changes. */
export function targetPath(record: JournalRecord, op: JournalOp): string {
  return inFolder(folderOf(record, op), op.name);
}

/** The temp file holding an op's new content, beside its target (same filesystem, so rename is atomic). */
export function stagedPath(record: JournalRecord, op: JournalOp): string {
  return inFolder(folderOf(record, op), `${TEMP_PREFIX}${record.transactionId}-${op.index}`);
}

/** The temp file used to put an old version back atomically during rollback or undo. */
export function restoringPath(record: JournalRecord, op: JournalOp): string {
  return `${stagedPath(record, op)}-restore`;
}

function stateFile(journalDir: string, transactionId: string, seq: number): string {
  return path.join(transactionDir(journalDir, transactionId), `state-${String(seq).padStart(6, '0')}.json`);
}

/** Writes a new state file (synchronously: a small write to the page cache; its flush is separate). */
function writeStateFile(file: string, record: JournalRecord): void {
  fsSync.writeFileSync(file, JSON.stringify(record), { flag: 'wx', mode: 0o600 });
}

/**
 * Creates the transaction folder, its empty backup folder and its first state file, and returns
 * the flush that makes them durable (one round of fsyncs), so the caller can do the work that
 * needs no durable journal (looking at the targets) while it runs.
 */
export async function createJournal(journalDir: string, record: JournalRecord): Promise<() => Promise<void>> {
  const dir = transactionDir(journalDir, record.transactionId);
  fsSync.mkdirSync(path.join(dir, BACKUP_DIR), { recursive: true });
  record.seq = 1;
  const file = stateFile(journalDir, record.transactionId, record.seq);
  writeStateFile(file, record);
  return async () => {
    await Promise.all([fsyncFile(file), fsyncDir(dir), fsyncDir(journalDir)]);
  };
}

/** How `saveJournal` makes a state durable. */
export interface SaveOptions {
  /** Folders flushed in the same round (their entries must be durable before the state is). */
  alsoSync?: Iterable<string>;
}

/**
 * Records a new state in a new state file, durably, before the caller acts on it or reports it.
 * Final states are durable too: a commit, undo or rollback that a power cut could send back to
 * recovery after it was reported would be redone over whatever people wrote since.
 */
export async function saveJournal(journalDir: string, record: JournalRecord, state: JournalState, options: SaveOptions = {}): Promise<void> {
  record.state = state;
  record.updatedAt = new Date().toISOString();
  // The process working on it now (an undo, a recovery), not the one that began it: recovery elsewhere leaves a live owner's journal alone.
  record.owner = currentOwner();
  const previous = record.seq;
  record.seq = previous + 1;
  const file = stateFile(journalDir, record.transactionId, record.seq);
  writeStateFile(file, record);
  await Promise.all([fsyncFile(file), fsyncDir(transactionDir(journalDir, record.transactionId)), fsyncDirs(options.alsoSync ?? [])]);
  // Older states are superseded only once this one is durable.
  for (let seq = previous; seq >= 1; seq--) await removeFile(stateFile(journalDir, record.transactionId, seq));
}

/** Reads a transaction's journal (its newest readable state); NotFoundError when there is none. */
export async function readJournal(journalDir: string, transactionId: string): Promise<JournalRecord> {
  const record = await readJournalOrNull(journalDir, transactionId);
  if (!record) throw new NotFoundError(`No commit journal ${transactionId} in ${journalDir}: list transactions to see which exist.`);
  return record;
}

/**
 * The newest readable state of a transaction, or null when its folder has none (missing, or
 * created by a commit that crashed before its first state was written).
 */
export async function readJournalOrNull(journalDir: string, transactionId: string): Promise<JournalRecord | null> {
  let names: string[];
  try {
    names = await fs.readdir(transactionDir(journalDir, transactionId));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const files = names.filter((name) => STATE_FILE.test(name)).sort().reverse();
  for (const name of files) {
    let record: JournalRecord;
    try {
      record = JSON.parse(await fs.readFile(path.join(transactionDir(journalDir, transactionId), name), 'utf8')) as JournalRecord;
    } catch {
      continue; // torn by a crash mid-write: the previous state stands
    }
    if (record.format !== FORMAT) {
      throw new BinderyError(
        'io_error',
        `Commit journal ${transactionId} has format ${String(record.format)}, which this Bindery cannot read: open it with the version that wrote it.`,
      );
    }
    // The next state must follow every file present, torn ones included.
    record.seq = Number(STATE_FILE.exec(files[0]!)![1]);
    return record;
  }
  return null;
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

/** Removes leftovers of purging (`.trash-*` folders, renamed aside before deletion). */
export async function sweepTrash(journalDir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(journalDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(TRASH_PREFIX)) await fs.rm(path.join(journalDir, name), { recursive: true, force: true });
  }
}

/** How long ago a transaction folder was last changed, in milliseconds (0 when it is gone). */
export async function transactionAgeMs(journalDir: string, transactionId: string): Promise<number> {
  const stat = await fs.stat(transactionDir(journalDir, transactionId)).catch(() => null);
  return stat ? Date.now() - stat.mtimeMs : 0;
}

/** Removes a whole transaction folder: renamed aside first, so a crash never leaves half a journal. */
export async function removeTransaction(journalDir: string, transactionId: string): Promise<void> {
  const trash = path.join(journalDir, `${TRASH_PREFIX}${transactionId}`);
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
export function newRecord(transactionId: string, targetRoot: string, createdDirs: string[], ops: JournalOp[], emptiedDirs: EmptiedDir[] = []): JournalRecord {
  const now = new Date().toISOString();
  return {
    format: FORMAT,
    seq: 0,
    transactionId,
    targetRoot,
    createdAt: now,
    updatedAt: now,
    owner: currentOwner(),
    state: 'prepared',
    createdDirs,
    emptiedDirs,
    ops,
  };
}
