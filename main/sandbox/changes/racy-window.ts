/**
 * When an entry's stats can be trusted to change with its next write. A write within the
 * timestamp tick of the one before leaves the times as they were, so stats that may share a tick
 * with a later write say nothing about the content (git's "racy" entries). Git compares a file's
 * times with its index file's, stamped by the same clock; a look does the same with a file of
 * Bindery's own it touches as it begins: an entry that changed a kernel tick or more before that
 * stamp keeps its times only until its next write. That holds on this machine's own filesystems
 * with sub-second times, which take their times from the kernel's clock (not ZFS: it reads that
 * clock without the floor newer kernels keep). Anything else is trusted after seconds of wall
 * time: whole-second times (ext4 with 128-byte inodes, FAT's two seconds), and network or FUSE
 * filesystems, whose times may come from a server's clock that runs behind ours.
 */
import fs from 'node:fs';
import path from 'node:path';

/** How long the times of an entry whose clock or tick is unknown take to be trusted. */
export const COARSE_WINDOW_MS = 3000;

/**
 * How much older than the look's stamp an entry's times must be: the longest kernel tick (10 ms)
 * twice over, for filesystems whose clock lags the stamp's by up to a tick.
 */
export const TICK_MARGIN_MS = 20;

/** statfs types of Linux filesystems whose times come from this machine's clock, in nanoseconds. */
const LOCAL_CLOCK_FILESYSTEMS = new Set([
  0xef53, // ext2, ext3, ext4 (whole seconds with 128-byte inodes: their times show it)
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0xf2f52010, // f2fs
  0x794c7630, // overlayfs (a lower layer on another filesystem has a device of its own)
]);

/** How one look tells settled stats from racy ones. */
export interface RacyRule {
  /** True when a write after the read of this entry, which began at `readAtMs` (wall clock), cannot leave `stat`'s times as they are. */
  settled(stat: fs.Stats, readAtMs: number): boolean;
  /** Entries that changed at this time or later (ms) are racy whatever their filesystem. */
  racyFrom(readAtMs: number): number;
}

/** Trusts any entry whose times are `windowMs` older than the read. */
export function wallClockRule(windowMs: number): RacyRule {
  return { settled: (stat, readAtMs) => changedAt(stat) < readAtMs - windowMs, racyFrom: (readAtMs) => readAtMs - windowMs };
}

/**
 * The rule of a look that begins now at the folders `roots`, through the file `clock` (created
 * when missing): entries on a filesystem of a root that keeps this machine's clock, with
 * sub-second times, are settled when they changed TICK_MARGIN_MS before the stamp the kernel
 * gives `clock` now; the others after COARSE_WINDOW_MS. Devices are looked up at every look: a
 * number can be reused by whatever is mounted at a root next.
 */
export function takeRacyRule(roots: readonly string[], clock: string): RacyRule {
  const coarse = wallClockRule(COARSE_WINDOW_MS);
  const local = new Set(roots.map(localClockDevice).filter((dev) => dev !== null));
  const stamp = local.size > 0 ? kernelNow(clock) : null;
  if (stamp === null || localClockDevice(clock) === null) return coarse;
  return {
    settled: (stat, readAtMs) => (local.has(stat.dev) && stat.ctimeMs % 1000 !== 0 ? changedAt(stat) < stamp - TICK_MARGIN_MS : coarse.settled(stat, readAtMs)),
    racyFrom: (readAtMs) => Math.max(stamp - TICK_MARGIN_MS, coarse.racyFrom(readAtMs)),
  };
}

/** The latest time an entry's times say it changed (ms). */
export function changedAt(times: { mtimeMs: number; ctimeMs: number }): number {
  return Math.max(times.mtimeMs, times.ctimeMs);
}

/** The device of `root` when its filesystem takes its times from this machine's clock, else null. */
function localClockDevice(root: string): number | null {
  if (process.platform !== 'linux') return null;
  try {
    return LOCAL_CLOCK_FILESYSTEMS.has(fs.statfsSync(root).type) ? fs.statSync(root).dev : null;
  } catch {
    return null;
  }
}

/** The kernel's time now, as the ctime it gives `file` when its times are set (null when that fails). */
function kernelNow(file: string): number | null {
  try {
    const now = new Date();
    try {
      fs.utimesSync(file, now, now);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '');
    }
    return fs.lstatSync(file).ctimeMs;
  } catch {
    return null;
  }
}
