/**
 * A cheap look at the journal folder for a host's start: which transactions may need recovery,
 * without parsing whole journals (a commit's journal lists every path, megabytes for a big one).
 * A settled transaction has exactly one state file past the first, and state files are written
 * once and never changed (see journal-file.ts), so its state can be read from the file's first
 * bytes; anything else (two state files, only the first, none, an unexpected start) may be
 * interrupted, and is left for recoverTransactions to decide.
 */
import fsSync from 'node:fs';
import path from 'node:path';
import { isFinal, readJournalOrNull, transactionDir, type JournalState } from './journal-file.ts';

/** One transaction as the look saw it. */
export interface TransactionLook {
  transactionId: string;
  /** Its final state when it is settled; null when it may need recovery. */
  settled: JournalState | null;
  /** The process that wrote it, when its state file could be read. */
  owner: { pid: number; host: string } | null;
  /**
   * True for a folder with no state file yet that is younger than recovery's grace: a commit another
   * process is starting right now, which recovery leaves alone (recover.ts, UNWRITTEN_GRACE_MS).
   */
  starting?: boolean;
}

/** As recover.ts waits before removing a transaction folder without a readable state. */
const UNWRITTEN_GRACE_MS = 10 * 60 * 1000;

/** As journal-file.ts names them. */
const STATE_FILE = /^state-(\d{6})\.json$/;
const TRANSACTION_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const PREFIX_BYTES = 4096;
/** One buffer for every look: the reads are synchronous, so none overlaps another. */
const prefixBuffer = Buffer.alloc(PREFIX_BYTES);
/** How JSON.stringify writes a record (newRecord's key order) up to its state. */
const PREFIX = /^\{"format":1,"seq":\d+,"transactionId":"[0-9A-Z]{26}","targetRoot":"(?:[^"\\]|\\.)*","createdAt":"[^"\\]*","updatedAt":"[^"\\]*","owner":(\{"pid":\d+,"host":"(?:[^"\\]|\\.)*"\}),"state":"([a-z_]+)"/;

/**
 * Every transaction in `journalDir` as a look at its newest state file sees it; an absent folder
 * has none. The reads are synchronous: each costs microseconds, and a start waits for them anyway
 * (a trip through the thread pool each costs more on a busy machine).
 */
export async function lookAtTransactions(journalDir: string): Promise<TransactionLook[]> {
  const dir = path.resolve(journalDir);
  let names: string[];
  try {
    names = fsSync.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const looks: TransactionLook[] = [];
  for (const transactionId of names.filter((name) => TRANSACTION_ID.test(name)).sort()) looks.push(await look(dir, transactionId));
  return looks;
}

async function look(journalDir: string, transactionId: string): Promise<TransactionLook> {
  const folder = transactionDir(journalDir, transactionId);
  const states = readdirOrEmpty(folder).filter((name) => STATE_FILE.test(name)).sort();
  const newest = states[states.length - 1];
  if (!newest) {
    const made = fsSync.statSync(folder, { throwIfNoEntry: false });
    return { transactionId, settled: null, owner: null, starting: !!made && Date.now() - made.mtimeMs < UNWRITTEN_GRACE_MS };
  }
  let seen = readPrefix(path.join(folder, newest));
  // The first state is always `prepared`; two files mean a state change was cut short (or is under way).
  const single = states.length === 1 && Number(STATE_FILE.exec(newest)![1]) >= 2;
  if (!seen && single) {
    const record = await readJournalOrNull(journalDir, transactionId).catch(() => null);
    seen = record && { state: record.state, owner: record.owner };
  }
  // A newest state file still being written has no readable start yet; the one before it names the same owner.
  const owner = seen?.owner ?? (states.length > 1 ? readPrefix(path.join(folder, states[states.length - 2]!))?.owner : null) ?? null;
  return { transactionId, settled: single && seen && isFinal(seen.state) ? seen.state : null, owner };
}

function readdirOrEmpty(folder: string): string[] {
  try {
    return fsSync.readdirSync(folder);
  } catch {
    return [];
  }
}

function readPrefix(file: string): { state: JournalState; owner: { pid: number; host: string } } | null {
  let fd: number;
  try {
    fd = fsSync.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const bytesRead = fsSync.readSync(fd, prefixBuffer, 0, PREFIX_BYTES, 0);
    const match = PREFIX.exec(prefixBuffer.toString('utf8', 0, bytesRead));
    return match ? { state: match[2] as JournalState, owner: JSON.parse(match[1]!) as { pid: number; host: string } } : null;
  } finally {
    fsSync.closeSync(fd);
  }
}
