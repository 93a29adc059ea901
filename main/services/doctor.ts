/** Health checks for `bindery doctor` and the app's About panel. */
import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import Sqlite from 'better-sqlite3';
import { DATABASE_FILE, LATEST_VERSION } from '../registry/database.ts';

/** One check's outcome. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

const MIN_GIT = [2, 25];

/** Runs every check; never throws. */
export async function runDoctor(dataDir: string): Promise<DoctorCheck[]> {
  return [await checkGit(), checkDataDir(dataDir), checkDatabase(path.join(dataDir, DATABASE_FILE))];
}

async function checkGit(): Promise<DoctorCheck> {
  try {
    const version = await simpleGit().version();
    if (!version.installed) return { name: 'git', ok: false, detail: 'git was not found on PATH: install git 2.25 or newer.' };
    const ok = version.major > MIN_GIT[0]! || (version.major === MIN_GIT[0] && version.minor >= MIN_GIT[1]!);
    const text = `${version.major}.${version.minor}.${version.patch}`;
    return { name: 'git', ok, detail: ok ? `git ${text}` : `git ${text} is too old for worktree sandboxes: install 2.25 or newer.` };
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
    return { name: 'data directory', ok: false, detail: `${dataDir} is not writable (${(error as Error).message}): fix its permissions or use --data-dir.` };
  }
}

function checkDatabase(file: string): DoctorCheck {
  if (!fs.existsSync(file)) return { name: 'database', ok: true, detail: `${file} does not exist yet; it is created on first use` };
  try {
    const db = new Sqlite(file, { readonly: true, fileMustExist: true });
    try {
      const result = db.pragma('integrity_check', { simple: true });
      const version = db.pragma('user_version', { simple: true }) as number;
      if (result !== 'ok') return { name: 'database', ok: false, detail: `${file} failed its integrity check: ${String(result)}` };
      if (version > LATEST_VERSION) {
        return { name: 'database', ok: false, detail: `${file} has schema ${version}, newer than this Bindery (${LATEST_VERSION}): update Bindery.` };
      }
      return { name: 'database', ok: true, detail: `${file}: integrity ok, schema ${version}` };
    } finally {
      db.close();
    }
  } catch (error) {
    return { name: 'database', ok: false, detail: `${file} cannot be read: ${(error as Error).message}` };
  }
}
