/** Health checks for `bindery doctor` and the app's About panel. */
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { BinderyError } from '../../shared/errors.ts';
import { gitVersion, isSupportedGit, MINIMUM_GIT } from '../git/index.ts';
import { DATABASE_FILE, LATEST_VERSION } from '../registry/database.ts';
import { headerVersion, unwritableDataDir } from '../registry/database-guard.ts';
import { layoutFor } from '../sandbox/index.ts';
import type { Bindery } from './bindery.ts';
import { formatBytes, measureDiskUse, type DiskUse } from './disk-use.ts';
import { summarizeStartRecovery } from './recovery-summary.ts';
import { findInterruptedWork, hasInterruptedWork, type StartRecovery } from './start-recovery.ts';

/** One check's outcome. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** Every check, and the data directory's disk use by part. */
export interface DoctorResult {
  checks: DoctorCheck[];
  diskUse: DiskUse;
}

/** How the doctor reaches the core, to report what start-up recovery did. */
export interface DoctorOptions {
  /**
   * The open core (opened by this call when the database exists; a doctor never creates one).
   * Its start() is awaited, so interrupted work is finished or undone and reported.
   */
  core?: () => Bindery;
}

/** Runs every check; never throws. */
export async function runDoctor(dataDir: string, options: DoctorOptions = {}): Promise<DoctorResult> {
  const file = path.join(dataDir, DATABASE_FILE);
  let recovery: StartRecovery | undefined;
  let openError: unknown;
  if (options.core && fs.existsSync(file)) {
    try {
      const core = options.core();
      recovery = await core.start();
      // A host that has run for a while may meet work interrupted since its start (another process killed).
      recovery = { ...recovery, left: await findInterruptedWork(core.db, core.sandboxes.layout).catch(() => recovery!.left) };
    } catch (error) {
      openError = error;
    }
  }
  const [git, interrupted, diskUse] = await Promise.all([checkGit(), checkInterrupted(dataDir, recovery, openError), measureDiskUse(dataDir)]);
  const checks = [git, checkDataDir(dataDir), checkDatabase(file, openError), interrupted, diskUseCheck(diskUse)];
  return { checks, diskUse };
}

async function checkGit(): Promise<DoctorCheck> {
  const minimum = `${MINIMUM_GIT.major}.${MINIMUM_GIT.minor}`;
  try {
    const version = await gitVersion();
    if (!version.installed) return { name: 'git', ok: false, detail: `git was not found on PATH: install git ${minimum} or newer.` };
    const ok = isSupportedGit(version);
    const text = `${version.major}.${version.minor}.${version.patch}`;
    return { name: 'git', ok, detail: ok ? `git ${text}` : `git ${text} is too old for worktree sandboxes: install ${minimum} or newer.` };
  } catch (error) {
    return { name: 'git', ok: false, detail: `git could not be run: ${(error as Error).message}` };
  }
}

function checkDataDir(dataDir: string): DoctorCheck {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    const probe = path.join(dataDir, `.doctor-${process.pid}`);
    fs.writeFileSync(probe, 'ok');
    fs.rmSync(probe);
    return { name: 'data directory', ok: true, detail: `${dataDir} is writable` };
  } catch (error) {
    const detail = unwritableDataDir(dataDir, error)?.message ?? `${dataDir} is not writable (${(error as Error).message}): fix its permissions or use --data-dir.`;
    return { name: 'data directory', ok: false, detail };
  }
}

function checkDatabase(file: string, openError: unknown): DoctorCheck {
  if (!fs.existsSync(file)) return { name: 'database', ok: true, detail: `${file} does not exist yet; it is created on first use` };
  // A newer database is described below, from the file itself.
  if (openError instanceof BinderyError && openError.code !== 'database_too_new') return { name: 'database', ok: false, detail: openError.message };
  try {
    // Read from the header first: even a read-only connection would make -wal and -shm files beside a newer database.
    const stamped = headerVersion(file);
    if (stamped !== null && stamped > LATEST_VERSION) return tooNew(file, stamped);
    const db = new Sqlite(file, { readonly: true, fileMustExist: true });
    try {
      const result = db.pragma('integrity_check', { simple: true });
      const version = db.pragma('user_version', { simple: true }) as number;
      if (result !== 'ok') return { name: 'database', ok: false, detail: `${file} failed its integrity check: ${String(result)}` };
      if (version > LATEST_VERSION) return tooNew(file, version);
      return { name: 'database', ok: true, detail: `${file}: integrity ok, schema ${version}` };
    } finally {
      db.close();
    }
  } catch (error) {
    return { name: 'database', ok: false, detail: `${file} cannot be read: ${(error as Error).message}` };
  }
}

function tooNew(file: string, version: number): DoctorCheck {
  return { name: 'database', ok: false, detail: `${file} has schema ${version}, newer than this Bindery (${LATEST_VERSION}): update Bindery.` };
}

/** What start-up recovery did; without an open core, what the journal and trash folders alone show. */
async function checkInterrupted(dataDir: string, recovery: StartRecovery | undefined, openError: unknown): Promise<DoctorCheck> {
  const name = 'interrupted work';
  if (recovery) {
    const summary = summarizeStartRecovery(recovery);
    return { name, ok: summary.ok, detail: summary.detail };
  }
  const layout = layoutFor(dataDir);
  const found = await findInterruptedWork(null, layout).catch(() => null);
  if (!found) return { name, ok: false, detail: `Bindery could not look into ${layout.journalDir} and ${layout.trashDir}: check their permissions.` };
  if (!hasInterruptedWork(found)) return { name, ok: true, detail: `none in ${layout.journalDir} or ${layout.trashDir}` };
  const what = `${found.transactions.length} interrupted commit(s) or undo(s) and ${found.trash.length} interrupted discard(s) or restore(s)`;
  return openError
    ? { name, ok: false, detail: `${what} wait until the database opens again (see the database check); they are finished at the next start after that.` }
    : { name, ok: false, detail: `${what} wait; the next start of Bindery (the app or any command) finishes or undoes them.` };
}

function diskUseCheck(use: DiskUse): DoctorCheck {
  const parts: Array<[string, number]> = [
    ['database', use.database],
    ['sandboxes', use.sandboxes],
    ['trash', use.trash],
    ['journal backups', use.journal],
    ['other', use.other],
  ];
  return { name: 'disk use', ok: true, detail: `${formatBytes(use.total)} in all: ${parts.map(([part, bytes]) => `${part} ${formatBytes(bytes)}`).join(', ')}` };
}
