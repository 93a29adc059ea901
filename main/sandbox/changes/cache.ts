/**
 * What the last change lists of a sandbox found at each path, kept while both sides of the path
 * stay exactly as they were: a live review recomputes the list after every burst of file events,
 * and most changed paths have not moved since the previous look, so they cost two lstats instead
 * of two reads, two hashes and a line diff. A path is kept only when its stats were the same
 * before and after it was read and both were older than their racy window (a file written again
 * within one timestamp tick would otherwise keep its old stats), like git's index.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DiskEntry } from './content.ts';
import type { Fingerprint } from './similarity.ts';
import type { ChangedFile } from '../../../shared/dto.ts';
import { changedAt, COARSE_WINDOW_MS, takeRacyRule, wallClockRule, type RacyRule } from './racy-window.ts';

/** One path's inspection as the list needs it: its change (null: none) and the rename identities. */
export interface ListedPath {
  change: ChangedFile | null;
  /** Content identity of an added path's new content, to pair it with a deleted one. */
  addedId: string | null;
  /** Content identity of a deleted path's old content. */
  deletedId: string | null;
  /** The content ids of both sides, for the list's version (change-version.ts); absent when there is no change. */
  ids?: string;
  /** An added or deleted path's fingerprint, to pair it by likeness (similarity.ts). */
  fingerprint?: Fingerprint | null;
}

/** Paths offered for reading ahead of the next look, at most. */
const READ_AHEAD_LIMIT = 512;

/** The stats of both sides of a path (null: nothing there), and whether they are old enough to be trusted. */
export interface PathStamp {
  key: string;
  settled: boolean;
  sides: [fs.Stats | null, fs.Stats | null];
}

/**
 * One look at a sandbox: the rule it judges stats by, taken as it began. Looks may overlap (two
 * callers at once); each judges its own reads by its own rule.
 */
export interface CacheLook {
  readonly rule: RacyRule;
}

/** The cache of one sandbox. */
export class ChangeCache {
  private entries = new Map<string, { key: string; listed: ListedPath }>();
  /** Paths the last look read but could not keep: they were still moving. */
  private readonly moving = new Set<string>();
  private counts = { hits: 0, misses: 0 };

  /** `takeRule`: how a look that begins now tells settled stats from racy ones (racy-window.ts). */
  constructor(private readonly takeRule: () => RacyRule = () => wallClockRule(COARSE_WINDOW_MS)) {}

  /** The cache of the sandbox at `sandboxPath` over `originalPath`, whose looks read the kernel's clock through a file in `tempDir`. */
  static forSandbox(sandbox: { path: string; originalPath: string }, tempDir: string): ChangeCache {
    return new ChangeCache(() => takeRacyRule([sandbox.path, sandbox.originalPath], path.join(tempDir, 'racy-clock')));
  }

  /** Starts a look: the stats it trusts are judged by the clock as it is now. */
  beginLook(): CacheLook {
    return { rule: this.takeRule() };
  }

  /**
   * The stamp of one path: the stats of the sandbox's and the original's entry, plus `context`
   * (what the base holds there and the access mode, which the description depends on too).
   */
  stamp(look: CacheLook, sandboxPath: string | Buffer, originalPath: string | Buffer, context: string): PathStamp {
    const now = Date.now();
    const inSandbox = lstatOrNull(sandboxPath);
    const inOriginal = lstatOrNull(originalPath);
    const settled = [inSandbox, inOriginal].every((stat) => !stat || look.rule.settled(stat, now));
    return { key: `${statKey(inSandbox)}|${statKey(inOriginal)}|${context}`, settled, sides: [inSandbox, inOriginal] };
  }

  /** The kept inspection of `rel`, when there is one and `stamp` (taken only then) is the one it was kept under. */
  lookup(rel: string, stamp: () => PathStamp): ListedPath | undefined {
    const kept = this.entries.get(rel);
    const now = kept ? stamp() : null;
    if (kept && now?.settled && now.key === kept.key) {
      this.counts.hits++;
      return kept.listed;
    }
    this.counts.misses++;
    return undefined;
  }

  /**
   * Keeps what was read of `rel` on both sides (`read`, whose stats were taken just before each
   * read, which began at `readAtMs`), under the stamp taken after it, when both sides had settled
   * before the read began and the stamp still describes exactly what was read: nothing moved
   * during or since the read, and an entry that came and went is not kept.
   */
  keep(look: CacheLook, rel: string, read: [DiskEntry, DiskEntry], stamp: () => PathStamp, listed: ListedPath, readAtMs: number): void {
    // Too young on any filesystem: no stamp is taken (two lstats, round trips on a network filesystem).
    const young = read.some((entry) => entry.type !== null && entry.type !== 'other' && changedAt(entry) >= look.rule.racyFrom(readAtMs));
    const after = young ? null : stamp();
    const asRead =
      after !== null &&
      read.every((entry, side) => {
        const stat = after.sides[side] ?? null;
        if (!describes(stat, entry)) return false;
        return stat === null || entry.type === null || entry.type === 'other' || look.rule.settled(stat, readAtMs);
      });
    if (asRead && after.settled) {
      this.entries.set(rel, { key: after.key, listed });
      this.moving.delete(rel);
    } else {
      this.entries.delete(rel);
      this.moving.add(rel);
    }
  }

  /** Forgets every path not in `rels` (they are no longer candidates), so the cache stays the size of the list. */
  retainOnly(rels: ReadonlySet<string>): void {
    for (const rel of this.entries.keys()) if (!rels.has(rel)) this.entries.delete(rel);
    for (const rel of this.moving) if (!rels.has(rel)) this.moving.delete(rel);
  }

  /** Paths the last look read but could not keep (a few hundred at most): the next look most likely reads them again. */
  unsettled(): string[] {
    return [...this.moving].slice(0, READ_AHEAD_LIMIT);
  }

  /** Lookups that found a kept inspection, and those that did not (for tests and benchmarks). */
  stats(): { hits: number; misses: number; size: number } {
    return { ...this.counts, size: this.entries.size };
  }
}

/** True when `stat` is the entry that was read: both absent, or the same file or link. */
function describes(stat: fs.Stats | null, entry: DiskEntry): boolean {
  if (entry.type === null || stat === null) return entry.type === null && stat === null;
  if (entry.type === 'other') return !stat.isFile() && !stat.isSymbolicLink();
  const same = entry.ino === stat.ino && entry.size === stat.size && entry.mtimeMs === stat.mtimeMs && entry.ctimeMs === stat.ctimeMs;
  return same && (entry.type === 'symlink') === stat.isSymbolicLink();
}

/** `lstat`, or null when nothing is there (a parent that is a file counts as nothing). */
function lstatOrNull(at: string | Buffer): fs.Stats | null {
  try {
    return fs.lstatSync(at, { throwIfNoEntry: false }) ?? null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

function statKey(stat: fs.Stats | null): string {
  return stat ? `${stat.ino}:${stat.size}:${stat.mode}:${stat.mtimeMs}:${stat.ctimeMs}` : '-';
}
