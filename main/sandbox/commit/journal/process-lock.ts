/**
 * Locks that hold across every process sharing a data directory (the app, `serve`, the CLI, the
 * MCP host): one per original folder or sandbox, taken before a commit, undo or recovery looks at
 * anything and held to its end. Each key is a SQLite file under `<dataDir>/locks/` on which the
 * holder keeps an exclusive transaction open: the operating system drops that lock the moment the
 * holder dies (even by SIGKILL), so a dead holder never leaves a stale lock and no two processes
 * can ever take one over together. Within a process a queue per key orders the work, and work
 * that already holds a key (the commit around its journal) takes it again at no cost.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CancelledError, ConflictError } from '../../../../shared/errors.ts';
import { realPathExact } from './disk-path.ts';

/** One thing to lock: `key` (an absolute path, symlinks resolved) and what the holder does with it. */
export interface LockKey {
  key: string;
  /** What the holder is doing, for the message of whoever waits, e.g. "committing to /home/me/app". */
  label: string;
}

/** How long to wait for a lock before giving up, in ms. */
export const DEFAULT_LOCK_TIMEOUT_MS = 10 * 60 * 1000;

/** Who holds a lock, as written beside it for the message of whoever waits. */
interface HolderNote {
  pid: number;
  host: string;
  startedAt: string;
  label: string;
}

/** One withLocks call's keys, live until its work ends (a task it started that runs later holds nothing). */
interface Holding {
  keys: ReadonlySet<string>;
  released: boolean;
}

const held = new AsyncLocalStorage<readonly Holding[]>();
const queues = new Map<string, Promise<unknown>>();
/**
 * The open connection of every lock held, until its release. Without this the lock lived only
 * as long as the garbage collector let the connection live: work stopped on a promise nothing
 * can settle (a pause) is unreachable, and collecting it closed the connection, so the lock was
 * dropped while its holder was still alive, at no chosen time (journal-owner.test.ts).
 */
const openLocks = new Set<Database.Database>();
let nativeBinding: string | undefined = process.env.BINDERY_SQLITE_BINDING || undefined;

/** How many lock connections this process holds open now (every release must bring it back down). */
export function openLockCount(): number {
  return openLocks.size;
}

/** Points the locks at a better-sqlite3 addon built for another ABI (Electron's), as the registry is. */
export function useLockNativeBinding(file: string | undefined): void {
  nativeBinding = file;
}

/** The folder of the locks of a data directory whose journal folder is `journalDir`. */
export function locksDirOf(journalDir: string): string {
  return path.join(path.dirname(path.resolve(journalDir)), 'locks');
}

/** The key of a folder: its path with symlinks resolved, as a commit's journal names its root (as given, if it is not there). */
export async function folderKey(folder: string): Promise<string> {
  return realPathExact(path.resolve(folder)).catch(() => path.resolve(folder));
}

/**
 * Runs `work` while holding every key, in this process and across processes. Keys are taken in
 * one order (sorted), so two holders of overlapping sets never wait for each other in a circle.
 * `signal` stops the wait (not the work once it holds them).
 */
export async function withLocks<T>(
  locksDir: string,
  keys: readonly LockKey[],
  work: () => Promise<T>,
  timeoutMs = DEFAULT_LOCK_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<T> {
  const mine = heldKeys();
  const wanted = [...new Map(keys.filter((k) => !mine.has(k.key)).map((k) => [k.key, k])).values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const take = async (index: number): Promise<T> => {
    if (index < wanted.length) return withKey(locksDir, wanted[index]!, timeoutMs, signal, () => take(index + 1));
    const holding: Holding = { keys: new Set(wanted.map((k) => k.key)), released: false };
    try {
      return await held.run([...(held.getStore() ?? []), holding], work);
    } finally {
      holding.released = true;
    }
  };
  return take(0);
}

/** True when the running work holds `key` (see withLocks). */
export function holdsLock(key: string): boolean {
  return heldKeys().has(key);
}

function heldKeys(): Set<string> {
  return new Set((held.getStore() ?? []).filter((h) => !h.released).flatMap((h) => [...h.keys]));
}

function cancelled(key: LockKey): CancelledError {
  return new CancelledError(`Cancelled while waiting for another Bindery process working on ${key.key}: nothing was changed.`);
}

/** Rejects once `signal` aborts while still `waiting()` (never without a signal); `stop` removes the listener. */
function abortOf(signal: AbortSignal | undefined, key: LockKey, waiting: () => boolean): { aborted: Promise<never>; stop: () => void } {
  if (!signal) return { aborted: new Promise<never>(() => undefined), stop: () => undefined };
  let stop = () => undefined as void;
  const aborted = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) return reject(cancelled(key));
    const onAbort = () => waiting() && reject(cancelled(key));
    signal.addEventListener('abort', onAbort, { once: true });
    stop = () => signal.removeEventListener('abort', onAbort);
  });
  aborted.catch(() => undefined);
  return { aborted, stop: () => stop() };
}

async function withKey<T>(locksDir: string, key: LockKey, timeoutMs: number, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(key.key) ?? Promise.resolve();
  let started = false;
  const current = previous.catch(() => undefined).then(async () => {
    if (signal?.aborted) throw cancelled(key);
    const release = await acquire(locksDir, key, timeoutMs, signal);
    try {
      if (signal?.aborted) throw cancelled(key);
      // From here the work's own outcome is the answer: a cancel no longer cuts the wait short.
      started = true;
      return await work();
    } finally {
      release();
    }
  });
  const tail = current.catch(() => undefined);
  queues.set(key.key, tail);
  const { aborted, stop } = abortOf(signal, key, () => !started);
  try {
    // A cancel while queued behind this process's own work returns at once; the queued step then sees it and ends.
    return await (signal ? Promise.race([current, aborted]) : current);
  } finally {
    stop();
    if (queues.get(key.key) === tail) void tail.then(() => queues.get(key.key) === tail && queues.delete(key.key));
  }
}

function fileOf(locksDir: string, key: string): string {
  return path.join(locksDir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.lock`);
}

/** Takes the cross-process lock of `key`, polling with backoff until `timeoutMs`; returns its release. */
async function acquire(locksDir: string, key: LockKey, timeoutMs: number, signal: AbortSignal | undefined): Promise<() => void> {
  fs.mkdirSync(locksDir, { recursive: true });
  const file = fileOf(locksDir, key.key);
  // busy_timeout 0: SQLite would wait by blocking the whole process; this waits asynchronously.
  const db = new Database(file, nativeBinding ? { timeout: 0, nativeBinding } : { timeout: 0 });
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  for (;;) {
    try {
      db.exec('BEGIN EXCLUSIVE');
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') {
        db.close();
        throw error;
      }
    }
    if (Date.now() >= deadline || signal?.aborted) {
      db.close();
      throw signal?.aborted ? cancelled(key) : busyError(file, key, timeoutMs);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(1, deadline - Date.now()))));
    delay = Math.min(delay * 2, 250);
  }
  openLocks.add(db);
  writeNote(file, key);
  return () => {
    openLocks.delete(db);
    try {
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
  };
}

/** Best effort: only the message of a waiter that gives up reads it. */
function writeNote(file: string, key: LockKey): void {
  const note: HolderNote = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), label: key.label };
  try {
    fs.writeFileSync(`${file}.holder.json`, JSON.stringify(note));
  } catch {
    // the lock holds without it
  }
}

function busyError(file: string, key: LockKey, timeoutMs: number): ConflictError {
  let who = `Another Bindery process is working on ${key.key}`;
  try {
    const note = JSON.parse(fs.readFileSync(`${file}.holder.json`, 'utf8')) as HolderNote;
    who = `Another Bindery process (pid ${note.pid} on ${note.host}, since ${note.startedAt}) is ${note.label}`;
  } catch {
    // no note: the generic wording
  }
  return new ConflictError(`${who}; this waited ${Math.round(timeoutMs / 1000)} s for it. Nothing was changed: try again when it finishes.`, {
    key: key.key,
    lockBusy: true,
  });
}

/** True when `error` is withLocks giving up because another process held a key all along. */
export function isLockBusy(error: unknown): boolean {
  return error instanceof ConflictError && (error.details as { lockBusy?: boolean } | undefined)?.lockBusy === true;
}
