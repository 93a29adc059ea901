/** Helpers for the journal's tests: temp folders removed after each test, hashes, small trees. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { TEMP_PREFIX } from '../journal-file.ts';
import { applyTransaction, type ApplyTransactionResult, type TransactionOp } from '../index.ts';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp folder (realpath), removed after the test. */
export function tempDir(prefix = 'bindery-journal-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** The sha256 of a string, as expectations carry it. */
export function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Writes files (string content) or symlinks (`{ link: target }`) under `root`. */
export function writeTree(root: string, entries: Record<string, string | { link: string }>): void {
  for (const [rel, value] of Object.entries(entries)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (typeof value === 'string') fs.writeFileSync(file, value);
    else fs.symlinkSync(value.link, file);
  }
}

/** Every entry under `root` as relPath -> content, `-> target` for symlinks, `<dir>` for folders. */
export function readTree(root: string): Record<string, string> {
  const tree: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      const full = path.join(root, child);
      if (entry.isSymbolicLink()) tree[child] = `-> ${fs.readlinkSync(full)}`;
      else if (entry.isDirectory()) {
        tree[child] = '<dir>';
        visit(child);
      } else tree[child] = fs.readFileSync(full, 'utf8');
    }
  };
  visit('');
  return tree;
}

/** Names of Bindery temp files anywhere under `root`. */
export function tempFilesIn(root: string): string[] {
  return Object.keys(readTree(root)).filter((rel) => path.basename(rel).startsWith(TEMP_PREFIX));
}

/** A sandbox, a target and a journal folder for one test. */
export function workspace(): { sandbox: string; target: string; journalDir: string } {
  const root = tempDir();
  const dirs = { sandbox: path.join(root, 'sandbox'), target: path.join(root, 'target'), journalDir: path.join(root, 'journal') };
  fs.mkdirSync(dirs.sandbox);
  fs.mkdirSync(dirs.target);
  return dirs;
}

/**
 * A commit of a new `a.txt` over 'old a' whose new version `swap` puts something else in place of
 * (the file removed first) once the commit is prepared, after its check.
 */
export function swappedAfterCheck(swap: (source: string) => void): { target: string; commit: () => Promise<ApplyTransactionResult> } {
  const { sandbox, target, journalDir } = workspace();
  writeTree(target, { 'a.txt': 'old a' });
  writeTree(sandbox, { 'a.txt': 'new a' });
  const source = path.join(sandbox, 'a.txt');
  const ops: TransactionOp[] = [{ relPath: 'a.txt', kind: 'write', sourcePath: source, expect: { kind: 'file', sha256: sha('old a') } }];
  const hooks = {
    at(point: string) {
      if (point !== 'prepared') return;
      fs.rmSync(source);
      swap(source);
    },
  };
  return { target, commit: () => applyTransaction({ journalDir, targetRoot: target, ops, hooks }) };
}

const NOBODY = 65534;

function chownTree(dir: string, id: number): void {
  fs.chownSync(dir, id, id);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) fs.lchownSync(path.join(entry.parentPath, entry.name), id, id);
}

/**
 * Runs `work` as a user whom permissions bind: this one, or nobody (owning everything under
 * `root`) when the tests run as root, whom they do not.
 */
export async function asOrdinaryUser<T>(root: string, work: () => Promise<T>): Promise<T> {
  if (process.getuid?.() !== 0) return work();
  chownTree(root, NOBODY);
  process.setegid!(NOBODY);
  process.seteuid!(NOBODY);
  try {
    return await work();
  } finally {
    process.seteuid!(0);
    process.setegid!(0);
  }
}
