/**
 * Directory walks that keep exact names (see paths.ts) and skip nothing silently: the async
 * walk lists a tree for copying, the sync walk feeds change detection (one lstat per entry,
 * no event-loop round trips, which is what makes it keep up with `git status`).
 */
import type { Dirent, Stats } from 'node:fs';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CancelledError } from '../../../shared/errors.ts';
import { decodeName, hasEscapes, inRoot } from './paths.ts';

/** The kind of an entry as the sandbox engine sees it. */
export type WalkKind = 'dir' | 'file' | 'symlink' | 'other';

/** One entry below a root. */
export interface WalkEntry {
  rel: string;
  kind: WalkKind;
}

/** Options of a walk. */
export interface WalkOptions {
  signal?: AbortSignal;
  /** Called with each relative path before it is entered or listed; return true to skip it. */
  skip?: (rel: string, kind: WalkKind) => boolean;
  /** walkSync: visit directories too (before what they contain). */
  includeDirs?: boolean;
}

function kindOf(entry: Dirent | Stats): WalkKind {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** Lists a directory's names exactly, falling back to bytes when a name is not UTF-8. */
async function readNames(root: string, rel: string): Promise<Array<{ name: string; kind: WalkKind }>> {
  const at = inRoot(root, rel);
  const entries = await fs.readdir(at, { withFileTypes: true });
  if (!entries.some((entry) => entry.name.includes('\uFFFD'))) return entries.map((e) => ({ name: e.name, kind: kindOf(e) }));
  const raw = await fs.readdir(at, { withFileTypes: true, encoding: 'buffer' });
  return raw.map((e) => ({ name: decodeName(e.name as unknown as Buffer), kind: kindOf(e as unknown as Dirent) }));
}

function readNamesSync(root: string, rel: string): Array<{ name: string; kind: WalkKind }> {
  const at = inRoot(root, rel);
  const entries = fsSync.readdirSync(at, { withFileTypes: true });
  if (!entries.some((entry) => entry.name.includes('\uFFFD'))) return entries.map((e) => ({ name: e.name, kind: kindOf(e) }));
  const raw = fsSync.readdirSync(at, { withFileTypes: true, encoding: 'buffer' });
  return raw.map((e) => ({ name: decodeName(e.name as unknown as Buffer), kind: kindOf(e as unknown as Dirent) }));
}

/** Lists every entry below `root` (directories before what they contain), reading directories concurrently. */
export async function listTree(root: string, options: WalkOptions = {}, concurrency = 16): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  const pending: string[] = [''];
  let active = 0;
  let failure: unknown;
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      if (failure !== undefined || (pending.length === 0 && active === 0)) return resolve();
      while (active < concurrency && pending.length > 0) {
        const dir = pending.pop() as string;
        active++;
        readNames(root, dir)
          .then((names) => {
            if (options.signal?.aborted) throw new CancelledError('Cancelled while listing files.');
            for (const { name, kind } of names) {
              const rel = join(dir, name);
              if (options.skip?.(rel, kind)) continue;
              out.push({ rel, kind });
              if (kind === 'dir') pending.push(rel);
            }
          })
          .catch((error: unknown) => {
            failure ??= error;
          })
          .finally(() => {
            active--;
            pump();
          });
      }
    };
    pump();
  });
  if (failure !== undefined) throw failure;
  return out;
}

/** Visits every file, symlink and special file below `root` with its lstat; directories are entered (and visited with `includeDirs`). */
export function walkSync(root: string, visit: (rel: string, stat: Stats) => void, options: WalkOptions = {}): void {
  const base = root.endsWith(path.sep) ? root.slice(0, -1) : root;
  const stack: string[] = [''];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    // Names that are not UTF-8 take the exact (slower) route; plain names are joined as strings.
    let entries: Dirent[] | null = null;
    try {
      entries = hasEscapes(dir) ? null : fsSync.readdirSync(dir === '' ? base : `${base}/${dir}`, { withFileTypes: true });
    } catch (error) {
      // A folder deleted (or replaced by a file) since it was listed has nothing left to visit.
      if (dir !== '' && isGone(error)) continue;
      throw error;
    }
    if (!entries || entries.some((entry) => entry.name.includes('\uFFFD'))) {
      walkExact(root, dir, stack, visit, options);
      continue;
    }
    for (const entry of entries) {
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      const kind = kindOf(entry);
      if (options.skip?.(rel, kind)) continue;
      if (kind === 'dir') {
        stack.push(rel);
        if (!options.includeDirs) continue;
      }
      const stat = fsSync.lstatSync(`${base}/${rel}`, { throwIfNoEntry: false });
      if (stat) visit(rel, stat);
    }
  }
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function walkExact(root: string, dir: string, stack: string[], visit: (rel: string, stat: Stats) => void, options: WalkOptions): void {
  let names: Array<{ name: string; kind: WalkKind }>;
  try {
    names = readNamesSync(root, dir);
  } catch (error) {
    if (dir !== '' && isGone(error)) return;
    throw error;
  }
  for (const { name, kind } of names) {
    const rel = join(dir, name);
    if (options.skip?.(rel, kind)) continue;
    if (kind === 'dir') {
      stack.push(rel);
      if (!options.includeDirs) continue;
    }
    const stat = fsSync.lstatSync(inRoot(root, rel), { throwIfNoEntry: false });
    if (stat) visit(rel, stat);
  }
}
