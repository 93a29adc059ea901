/**
 * What is at a path (absent, file with hash and mode, symlink with target, or something the
 * journal will not touch), and how that compares with an expectation or a recorded state.
 */
import fs from 'node:fs';
import { hashFile, lstatOrNull } from './durable-fs.ts';
import type { Expectation } from './types.ts';

/** A state the journal can record and restore. */
export type RecordedState =
  | { kind: 'absent' }
  | { kind: 'file'; sha256: string; mode: number }
  | { kind: 'symlink'; target: string };

/** Any state found on disk; directories and special files are never overwritten. */
export type EntryState = RecordedState | { kind: 'directory' } | { kind: 'other' };

/** A state as observed, with the inode that lets a hard-linked backup be checked against it. */
export interface Observed {
  state: EntryState;
  ino: number;
  dev: number;
}

/** Permission bits only (no file type bits). */
export function permissionBits(mode: number): number {
  return mode & 0o7777;
}

/** Looks at `file` without following a final symlink; hashes regular files. */
export async function observe(file: string): Promise<Observed> {
  const stat = await lstatOrNull(file);
  if (!stat) return { state: { kind: 'absent' }, ino: 0, dev: 0 };
  const ids = { ino: stat.ino, dev: stat.dev };
  if (stat.isSymbolicLink()) return { state: { kind: 'symlink', target: fs.readlinkSync(file) }, ...ids };
  if (stat.isDirectory()) return { state: { kind: 'directory' }, ...ids };
  if (!stat.isFile()) return { state: { kind: 'other' }, ...ids };
  return { state: { kind: 'file', sha256: await hashFile(file), mode: permissionBits(stat.mode) }, ...ids };
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
