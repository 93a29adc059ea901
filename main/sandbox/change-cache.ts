/**
 * What the last change lists of a sandbox found at each path, kept while both sides of the path
 * stay exactly as they were: a live review recomputes the list after every burst of file events,
 * and most changed paths have not moved since the previous look, so they cost two lstats instead
 * of two reads, two hashes and a line diff. A path is kept only when its stats were the same
 * before and after it was read and both were older than the racy window (a file written again
 * within one timestamp tick would otherwise keep its old stats), like git's index.
 */
import fs from 'node:fs';
import type { FileChange } from './model.ts';

/** One path's inspection as the list needs it: its change (null: none) and the rename identities. */
export interface ListedPath {
  change: FileChange | null;
  /** Content identity of an added path's new content, to pair it with a deleted one. */
  addedId: string | null;
  /** Content identity of a deleted path's old content. */
  deletedId: string | null;
}

/** Changes this close to a look are not trusted to show in the stats (the journal's window too). */
const RACY_MS = 3000;

/** The stats of both sides of a path, and whether they are old enough to be trusted. */
export interface PathStamp {
  key: string;
  settled: boolean;
}

/** The cache of one sandbox. */
export class ChangeCache {
  private entries = new Map<string, { key: string; listed: ListedPath }>();
  private counts = { hits: 0, misses: 0 };

  constructor(private readonly racyMs = RACY_MS) {}

  /**
   * The stamp of one path: the stats of the sandbox's and the original's entry, plus `context`
   * (what the base holds there and the access mode, which the description depends on too).
   */
  stamp(sandboxPath: string | Buffer, originalPath: string | Buffer, context: string): PathStamp {
    // Millisecond times are exact enough: a settled entry that changes again gets a time at least
    // the racy window later than the one kept.
    const settledBefore = Date.now() - this.racyMs;
    const inSandbox = fs.lstatSync(sandboxPath, { throwIfNoEntry: false });
    const inOriginal = fs.lstatSync(originalPath, { throwIfNoEntry: false });
    const settled = [inSandbox, inOriginal].every((stat) => !stat || Math.max(stat.mtimeMs, stat.ctimeMs) < settledBefore);
    return { key: `${statKey(inSandbox)}|${statKey(inOriginal)}|${context}`, settled };
  }

  /** The kept inspection of `rel` when `stamp` is the one it was kept under. */
  get(rel: string, stamp: PathStamp): ListedPath | undefined {
    const kept = stamp.settled ? this.entries.get(rel) : undefined;
    if (kept && kept.key === stamp.key) {
      this.counts.hits++;
      return kept.listed;
    }
    this.counts.misses++;
    return undefined;
  }

  /** Keeps what was read between `before` and `after`, when nothing moved meanwhile and both are settled. */
  set(rel: string, before: PathStamp, after: PathStamp, listed: ListedPath): void {
    if (before.settled && after.settled && before.key === after.key) this.entries.set(rel, { key: after.key, listed });
    else this.entries.delete(rel);
  }

  /** Forgets every path not in `rels` (they are no longer candidates), so the cache stays the size of the list. */
  retainOnly(rels: ReadonlySet<string>): void {
    for (const rel of this.entries.keys()) if (!rels.has(rel)) this.entries.delete(rel);
  }

  /** Lookups that found a kept inspection, and those that did not (for tests and benchmarks). */
  stats(): { hits: number; misses: number; size: number } {
    return { ...this.counts, size: this.entries.size };
  }
}

function statKey(stat: fs.Stats | undefined): string {
  return stat ? `${stat.ino}:${stat.size}:${stat.mode}:${stat.mtimeMs}:${stat.ctimeMs}` : '-';
}
