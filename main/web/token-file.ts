/**
 * The kept token of `bindery serve --keep-token`: one file in the data directory, readable by its
 * owner only, created atomically and reused on the next start, so an open page can reconnect
 * after a restart on the same port (issue 22).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { newToken } from './security.ts';

/** The file name, in the data directory. */
export const TOKEN_FILE_NAME = 'serve-token';

/** What loading the kept token did. */
export interface KeptToken {
  token: string;
  file: string;
  /** `reused` an existing file, `created` the first one, `replaced` one that could not be trusted. */
  outcome: 'reused' | 'created' | 'replaced';
  /** Why a file was replaced; null otherwise. */
  reason: string | null;
}

// The shape newToken() produces (32 random bytes, base64url); anything else is not ours.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const POSIX = process.platform !== 'win32';

/** Reads the kept token from `dataDir`, or writes a new one there (mode 0600) when none can be trusted. */
export function loadOrCreateToken(dataDir: string): KeptToken {
  const file = path.join(dataDir, TOKEN_FILE_NAME);
  const existing = readTrusted(file);
  if (existing.kind === 'ok') return { token: existing.token, file, outcome: 'reused', reason: null };
  const token = newToken();
  const temp = writeTemp(file, token);
  try {
    if (existing.kind === 'missing') {
      // link() never replaces: when another start wrote the file meanwhile, theirs is used.
      try {
        fs.linkSync(temp, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        return loadOrCreateToken(dataDir);
      }
    } else {
      fs.renameSync(temp, file);
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
  syncDirectory(dataDir);
  return existing.kind === 'missing' ? { token, file, outcome: 'created', reason: null } : { token, file, outcome: 'replaced', reason: existing.reason };
}

type Read = { kind: 'ok'; token: string } | { kind: 'missing' } | { kind: 'untrusted'; reason: string };

/** The token in `file` when it is a regular file of this user, private, holding a token of our shape. */
function readTrusted(file: string): Read {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'untrusted', reason: 'it was a symbolic link' };
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { kind: 'untrusted', reason: 'it was not a regular file' };
    if (POSIX && (stat.mode & 0o077) !== 0) return { kind: 'untrusted', reason: 'other users could read it' };
    if (POSIX && process.getuid && stat.uid !== process.getuid()) return { kind: 'untrusted', reason: 'it belonged to another user' };
    const token = fs.readFileSync(fd, 'utf8').trim();
    return TOKEN_SHAPE.test(token) ? { kind: 'ok', token } : { kind: 'untrusted', reason: 'it did not hold a token' };
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes the token to a new private file beside `file`, flushed to disk; returns its path. */
function writeTemp(file: string, token: string): string {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    // The umask can only take bits away; fchmod makes it exactly owner read-write.
    if (POSIX) fs.fchmodSync(fd, 0o600);
    fs.writeFileSync(fd, `${token}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return temp;
}

/** Makes the new directory entry durable (POSIX; Windows cannot open a directory). */
function syncDirectory(dir: string): void {
  if (!POSIX) return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
