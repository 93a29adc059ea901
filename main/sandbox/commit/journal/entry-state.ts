/**
 * What is at a path (absent, file with hash and mode, symlink with target, or something the
 * journal will not touch), and how that compares with an expectation or a recorded state.
 */
import fs from 'node:fs';
import { diskPath, readLinkExact } from './disk-path.ts';
import { hashFile } from './read-regular.ts';
import type { Expectation, KnownContent, SeenStat } from './types.ts';

/** A state the journal can record and restore. */
export type RecordedState =
  | { kind: 'absent' }
  | { kind: 'file'; sha256: string; mode: number }
  | { kind: 'symlink'; target: string };

/** Any state found on disk; directories and special files are never overwritten. */
export type EntryState = RecordedState | { kind: 'directory' } | { kind: 'other' };

/**
 * A file's identity and change times at one moment. Any write, chmod or rename updates them, so
 * an unchanged stamp proves an unchanged file, except within the timestamp granularity of a
 * recent change: such stamps are "racy" (as git calls it) and the content is hashed instead.
 */
export interface StatStamp {
  ino: bigint;
  dev: bigint;
  size: bigint;
  mode: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** A state as observed, with the stamp taken before its content was read. */
export interface Observed {
  state: EntryState;
  stamp: StatStamp | null;
  /** When it was observed (ns since the epoch, wall clock, as file times are). */
  observedAtNs: bigint;
}

/** Changes this recent (ms) may share a timestamp tick with a later one (FAT keeps 2 s). */
const RACY_MS = 3000;
const RACY_NS = BigInt(RACY_MS) * 1_000_000n;

function lstatBig(file: string): fs.BigIntStats | null {
  try {
    return fs.lstatSync(diskPath(file), { bigint: true, throwIfNoEntry: false }) ?? null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

/** The stamp of a stat taken with `bigint: true`. */
export function stampOf(stat: fs.BigIntStats): StatStamp {
  return { ino: stat.ino, dev: stat.dev, size: stat.size, mode: stat.mode, mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs };
}

/** The stamp of whatever is at `file` now, or null when nothing is. */
export function readStamp(file: string): StatStamp | null {
  const stat = lstatBig(file);
  return stat ? stampOf(stat) : null;
}

/** True when nothing about the file changed between the two stamps. */
export function sameStamp(a: StatStamp, b: StatStamp): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mode === b.mode && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/**
 * True when the file changed so shortly before it was observed that its stamp cannot be trusted.
 * ctime counts because no one can set it: a write that puts the old mtime back still moves it.
 */
export function isRacy(observed: Observed): boolean {
  const { stamp, observedAtNs } = observed;
  return stamp === null || stamp.ctimeNs > observedAtNs - RACY_NS || stamp.mtimeNs > observedAtNs - RACY_NS;
}

/** True when a caller's stat cannot vouch for its hash: the file changed too shortly before it was hashed. */
export function isRacySeen(seen: SeenStat): boolean {
  return Math.max(seen.ctimeMs, seen.mtimeMs) > seen.hashedAtMs - RACY_MS;
}

/** A time in ms as `fs.Stats` computes it from the same seconds and nanoseconds, so equal times compare equal. */
function statMs(ns: bigint): number {
  return Number(ns / 1_000_000_000n) * 1000 + Number(ns % 1_000_000_000n) / 1e6;
}

/**
 * True when the file is provably still what the caller hashed: its stat is exactly the one seen
 * then, and that was not racy. Any difference (a rounding one included) just means hashing.
 */
export function stillAsSeen(stamp: StatStamp, seen: SeenStat): boolean {
  return (
    !isRacySeen(seen) &&
    Number(stamp.ino) === seen.ino &&
    Number(stamp.size) === seen.size &&
    statMs(stamp.mtimeNs) === seen.mtimeMs &&
    statMs(stamp.ctimeNs) === seen.ctimeMs
  );
}

/** Permission bits only (no file type bits). */
export function permissionBits(mode: number): number {
  return mode & 0o7777;
}

/**
 * Looks at `file` without following a final symlink; hashes regular files, unless `known` is a
 * hash of this very file whose stat proves it unchanged since (then it counts as observed when
 * that hash was taken).
 */
export async function observe(file: string, known?: KnownContent): Promise<Observed> {
  const observedAtNs = BigInt(Date.now()) * 1_000_000n;
  const stat = lstatBig(file);
  if (!stat) return { state: { kind: 'absent' }, stamp: null, observedAtNs };
  const stamp = stampOf(stat);
  if (stat.isSymbolicLink()) return { state: { kind: 'symlink', target: readLinkExact(file) }, stamp, observedAtNs };
  if (stat.isDirectory()) return { state: { kind: 'directory' }, stamp, observedAtNs };
  if (!stat.isFile()) return { state: { kind: 'other' }, stamp, observedAtNs };
  const mode = permissionBits(Number(stat.mode));
  if (known?.seen && stillAsSeen(stamp, known.seen)) {
    return { state: { kind: 'file', sha256: known.sha256, mode }, stamp, observedAtNs: BigInt(Math.floor(known.seen.hashedAtMs)) * 1_000_000n };
  }
  return { state: { kind: 'file', sha256: await hashFile(file), mode }, stamp, observedAtNs };
}

/** True when two states are the same content, type and mode. */
export function sameState(a: EntryState, b: EntryState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.sha256 === b.sha256 && a.mode === b.mode;
  if (a.kind === 'symlink' && b.kind === 'symlink') return a.target === b.target;
  return true;
}

/** A short human description of a state, for drift reasons. */
export function describeState(state: EntryState): string {
  switch (state.kind) {
    case 'absent':
      return 'nothing';
    case 'file':
      return `a file (sha256 ${state.sha256.slice(0, 12)}, mode ${state.mode.toString(8)})`;
    case 'symlink':
      return `a symlink to ${JSON.stringify(state.target)}`;
    case 'directory':
      return 'a directory';
    default:
      return 'a special file (socket, device or pipe)';
  }
}

/** Why `state` does not meet `expect`, or null when it does. */
export function checkExpectation(state: EntryState, expect: Expectation): string | null {
  if (state.kind === 'directory' || state.kind === 'other') {
    return `${describeState(state)} is in the way; Bindery only replaces files and symlinks. Move it, then commit again.`;
  }
  switch (expect.kind) {
    case 'any':
      return null;
    case 'absent':
      return state.kind === 'absent' ? null : `expected nothing there but found ${describeState(state)}: it was created meanwhile.`;
    case 'file':
      if (state.kind === 'file' && state.sha256 === expect.sha256) return null;
      return `expected a file with sha256 ${expect.sha256.slice(0, 12)} but found ${describeState(state)}: it changed meanwhile.`;
    case 'symlink':
      if (state.kind === 'symlink' && state.target === expect.target) return null;
      return `expected a symlink to ${JSON.stringify(expect.target)} but found ${describeState(state)}: it changed meanwhile.`;
  }
}
