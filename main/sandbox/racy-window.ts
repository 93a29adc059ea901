/**
 * How old an entry's stats must be before they can be trusted to change with its next write. A
 * write within the timestamp tick of the one before leaves the times as they were, so stats
 * younger than a tick say nothing about the content (git's "racy" entries). Sub-second times on
 * a filesystem of this machine come from the kernel's clock, whose tick is 1 to 10 ms: a short
 * window covers it. Anything else gets seconds: whole-second times (ext4 with 128-byte inodes,
 * FAT's two seconds), and network or FUSE filesystems, whose times may come from another clock
 * that runs behind ours.
 */
import fs from 'node:fs';

/** The window where the filesystem's clock or its tick is not known. */
export const COARSE_WINDOW_MS = 3000;

/** The window for sub-second times from this machine's clock: ten times the longest kernel tick. */
export const FINE_WINDOW_MS = 100;

/** statfs types of Linux filesystems whose times come from this machine's clock. */
const LOCAL_CLOCK_FILESYSTEMS = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0xca451a4e, // bcachefs
  0x794c7630, // overlayfs
]);

/** The racy window of each entry. */
export interface RacyWindows {
  /** The window of the entry whose lstat is `stat`, in milliseconds. */
  of(stat: fs.Stats): number;
}

/** The same window for every entry. */
export function uniformWindow(ms: number): RacyWindows {
  return { of: () => ms };
}

/**
 * FINE_WINDOW_MS for entries with sub-second times on the filesystem of one of `roots`, when that
 * filesystem keeps this machine's clock; COARSE_WINDOW_MS for every other entry, those on a mount
 * inside the tree included.
 */
export function windowsUnder(roots: readonly string[]): RacyWindows {
  const local = new Set(roots.map(localClockDevice).filter((dev) => dev !== null));
  return { of: (stat) => (local.has(stat.dev) && stat.ctimeMs % 1000 !== 0 ? FINE_WINDOW_MS : COARSE_WINDOW_MS) };
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
