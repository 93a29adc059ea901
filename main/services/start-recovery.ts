/**
 * Recovery at a host's start (DESIGN 2.5), before it shows or does anything: a cheap look for
 * interrupted work (a few directory reads when there is none) and, when there is some, the full
 * recovery, which finishes or undoes it. Never throws: what it could not do is in its report,
 * which `bindery doctor` shows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { statement } from '../registry/database.ts';
import { getSandbox, sandboxesWithStatus } from '../registry/sandboxes.ts';
import { readJournalOrNull } from '../sandbox/index.ts';
import { lookAtTransactions, type TransactionLook } from '../sandbox/index.ts';
import { readMarker, type SandboxLayout } from '../sandbox/index.ts';
import type { RecoveryReport } from '../sandbox/index.ts';
import { DISCARDING_FLAG, heldByLiveProcess, isProcessAlive, RESTORING_FLAG } from '../sandbox/index.ts';

/** Work a stopped process left half done. */
export interface InterruptedWork {
  /** Commits and undos whose journal is not settled. */
  transactions: string[];
  /** Commits whose journal finished but that the registry has no record of, or undos it has not marked (the process died in between). */
  unrecorded: string[];
  /** Trash folders of a discard or restore left half done. */
  trash: string[];
  /** Sandboxes (ids) left provisioning. */
  provisioning: string[];
  /** How many of each kind a live process is doing right now (left to it, not interrupted). */
  busy: number;
}

/** What the start's recovery found and did. */
export interface StartRecovery {
  found: InterruptedWork;
  /** What recovery did; null when there was nothing to do (or it failed). */
  report: RecoveryReport | null;
  /** Why recovery failed; its work is kept for the next start. */
  error: string | null;
  /** What is still interrupted afterwards: waiting for a folder to come back, or failed. */
  left: InterruptedWork;
  /** How long the look and recovery took, in milliseconds. */
  ms: number;
}

/** The parts of the open core start-up recovery works with. */
export interface RecoverableCore {
  db: Database;
  sandboxes: { layout: SandboxLayout };
  plans: { recover(): Promise<RecoveryReport> };
}

/** True when `work` holds anything recovery should finish or undo. */
export function hasInterruptedWork(work: InterruptedWork): boolean {
  return work.transactions.length + work.unrecorded.length + work.trash.length + work.provisioning.length > 0;
}

/**
 * Looks for interrupted work; cheap when there is none: the journal and trash folders are read,
 * and only the first bytes of each journal's state. Without `db` (it could not be opened) the
 * registry's side is not looked at.
 */
export async function findInterruptedWork(db: Database | null, layout: SandboxLayout): Promise<InterruptedWork> {
  const work: InterruptedWork = { transactions: [], unrecorded: [], trash: [], provisioning: [], busy: 0 };
  const looks = await lookAtTransactions(layout.journalDir);
  // One read of the registry's commits for all journals: a query per journal scans the table each time (no index), quadratic in commits.
  const records = db && looks.some((look) => look.settled === 'committed' || look.settled === 'undone') ? commitRecords(db) : null;
  for (const look of looks) {
    const interrupted = look.settled === null;
    const unrecorded = !interrupted && records !== null && db !== null && (await needsRecord(db, records, layout.journalDir, look));
    if (!interrupted && !unrecorded) continue;
    if ((look.owner && ownerAlive(look.owner)) || look.starting) work.busy++;
    else (interrupted ? work.transactions : work.unrecorded).push(look.transactionId);
  }
  // Synchronous, as the journal's look: microseconds each, and no trips through the thread pool.
  for (const name of readdirOrEmpty(layout.trashDir)) {
    const trashPath = path.join(layout.trashDir, name);
    if (!fs.existsSync(path.join(trashPath, DISCARDING_FLAG)) && !fs.existsSync(path.join(trashPath, RESTORING_FLAG))) continue;
    if (await heldByLiveProcess(trashPath)) work.busy++;
    else work.trash.push(name);
  }
  for (const sandbox of db ? sandboxesWithStatus(db, ['provisioning']) : []) {
    const marker = await readMarker(sandbox.path).catch(() => null);
    if (marker && marker.pid !== process.pid && isProcessAlive(marker.pid)) work.busy++;
    else work.provisioning.push(sandbox.id);
  }
  return work;
}

/** Finishes or undoes the interrupted work of the core's data directory, when there is any (see the file's note). */
export async function recoverAtStart(core: RecoverableCore): Promise<StartRecovery> {
  const began = performance.now();
  const layout = core.sandboxes.layout;
  const found = await findInterruptedWork(core.db, layout).catch(() => null);
  if (found && !hasInterruptedWork(found)) return { found, report: null, error: null, left: found, ms: performance.now() - began };
  let report: RecoveryReport | null = null;
  let error: string | null = null;
  try {
    report = await core.plans.recover();
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  const empty: InterruptedWork = { transactions: [], unrecorded: [], trash: [], provisioning: [], busy: 0 };
  const left = await findInterruptedWork(core.db, layout).catch((caught: Error) => {
    error ??= `Bindery could not look for interrupted work in ${layout.journalDir} and ${layout.trashDir}: ${caught.message}`;
    return empty;
  });
  return { found: found ?? left, report, error, left, ms: performance.now() - began };
}

function readdirOrEmpty(folder: string): string[] {
  try {
    return fs.readdirSync(folder);
  } catch {
    return [];
  }
}

/** Each recorded commit's transaction, and whether it is marked undone. */
function commitRecords(db: Database): Map<string, boolean> {
  const rows = statement(db, 'SELECT transaction_id AS id, undone_at IS NOT NULL AS undone FROM sandbox_commits').all() as Array<{ id: string; undone: number }>;
  return new Map(rows.map((row) => [row.id, row.undone === 1]));
}

/**
 * True when recovery would record a settled journal (recovery.ts's `unrecorded`): a commit with no
 * record whose sandbox is still there to undo it, or an undo whose commit is not marked undone.
 * Anything else recovery leaves as it is, so counting it would run the full recovery at every
 * start and keep doctor failing. Only such rare journals are read whole.
 */
async function needsRecord(db: Database, records: Map<string, boolean>, journalDir: string, look: TransactionLook): Promise<boolean> {
  const undone = records.get(look.transactionId);
  const candidate = look.settled === 'undone' ? undone === false : look.settled === 'committed' && undone === undefined;
  if (!candidate) return false;
  const record = await readJournalOrNull(journalDir, look.transactionId).catch(() => null);
  if (record?.state !== look.settled || !record.labels) return false;
  return record.state === 'undone' || ['ready', 'committed'].includes(getSandbox(db, record.labels.sandboxId ?? '')?.status ?? '');
}

function ownerAlive(owner: { pid: number; host: string }): boolean {
  return owner.host === os.hostname() && owner.pid !== process.pid && isProcessAlive(owner.pid);
}
