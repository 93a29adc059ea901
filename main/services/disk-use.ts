/** How much disk a data directory takes, by part, as `du` counts it: blocks in use, each file once however many links it has. */
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DATABASE_FILE } from '../registry/database.ts';
import { layoutFor } from '../sandbox/index.ts';

/** Bytes on disk of each part of a data directory. */
export interface DiskUse {
  total: number;
  /** The registry: the database and its -wal and -shm files. */
  database: number;
  sandboxes: number;
  /** Discarded sandboxes kept for restoring. */
  trash: number;
  /** Commit journals: the backups undo restores from. */
  journal: number;
  /** Everything else (handlers, temporary files, corrupt copies set aside). */
  other: number;
}

type Part = Exclude<keyof DiskUse, 'total'>;

/** Measures the data directory (and a sandboxes root kept elsewhere); folders it cannot read count as empty. */
export async function measureDiskUse(dataDir: string, sandboxesRoot?: string): Promise<DiskUse> {
  const layout = layoutFor(dataDir, sandboxesRoot);
  const use: DiskUse = { total: 0, database: 0, sandboxes: 0, trash: 0, journal: 0, other: 0 };
  const seen = new Set<string>();
  const add = (part: Part, stat: Stats): void => {
    const key = `${stat.dev}:${stat.ino}`;
    if (stat.nlink > 1 && seen.has(key)) return;
    if (stat.nlink > 1) seen.add(key);
    const bytes = onDisk(stat);
    use[part] += bytes;
    use.total += bytes;
  };
  const partOf = (name: string): Part => {
    const full = path.join(dataDir, name);
    if (name === DATABASE_FILE || name.startsWith(`${DATABASE_FILE}-`)) return 'database';
    if (full === layout.journalDir) return 'journal';
    if (full === layout.trashDir) return 'trash';
    return full === layout.root ? 'sandboxes' : 'other';
  };
  const top = await fs.readdir(dataDir).catch(() => []);
  // The parts that matter most claim hard-linked files first.
  const order: Part[] = ['database', 'journal', 'trash', 'sandboxes', 'other'];
  top.sort((a, b) => order.indexOf(partOf(a)) - order.indexOf(partOf(b)));
  for (const name of top) await walk(path.join(dataDir, name), (stat) => add(partOf(name), stat));
  if (!top.some((name) => path.join(dataDir, name) === layout.root)) await walk(layout.root, (stat) => add('sandboxes', stat));
  return use;
}

/** Calls `visit` with the lstat of `entry` and of everything under it: one folder at a time, its entries at once. */
async function walk(entry: string, visit: (stat: Stats) => void): Promise<void> {
  const stat = await fs.lstat(entry).catch(() => null);
  if (!stat) return;
  visit(stat);
  if (stat.isDirectory()) await walkInside(entry, visit);
}

async function walkInside(dir: string, visit: (stat: Stats) => void): Promise<void> {
  const names = await fs.readdir(dir).catch(() => []);
  const stats = await Promise.all(names.map((name) => fs.lstat(path.join(dir, name)).catch(() => null)));
  for (const [index, stat] of stats.entries()) {
    if (!stat) continue;
    visit(stat);
    if (stat.isDirectory()) await walkInside(path.join(dir, names[index]!), visit);
  }
}

/** Blocks in use where the platform tells (sparse files count as what they hold), else the size. */
function onDisk(stat: Stats): number {
  return process.platform !== 'win32' && typeof stat.blocks === 'number' ? stat.blocks * 512 : stat.size;
}

/** A byte count for people: 0 B, 812 KB, 1.4 GB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
