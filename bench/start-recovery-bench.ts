/**
 * What start-up recovery's look costs every command (bindery.start() with no interrupted work),
 * beside opening the core it follows: a brand-new data directory, and 100 and 1,000 settled
 * commits of 1,000 files each (journals kept for undo), rolled back or committed and recorded. Median of 15 in-process runs each.
 * Run: npx tsx bench/start-recovery-bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { openBindery } from '../main/services/bindery.ts';
import { newRecord, newTransactionId, type JournalOp } from '../main/sandbox/commit/journal/journal-file.ts';

const ROUNDS = 15;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Journals as a commit leaves them once settled: one state file past the first, and a backup folder. */
function settledJournals(journalDir: string, count: number, state: 'rolled_back' | 'committed' = 'rolled_back'): string[] {
  const ids: string[] = [];
  const ops: JournalOp[] = Array.from({ length: 1000 }, (_, index) => ({
    index,
    relPath: `src/dir${index % 20}/file${index}.ts`,
    kind: 'write',
    dirRel: `src/dir${index % 20}`,
    name: `file${index}.ts`,
    old: { kind: 'file', sha256: 'a'.repeat(64), size: 100, mode: 0o644 },
    next: { kind: 'file', sha256: 'b'.repeat(64), size: 120, mode: 0o644 },
  })) as unknown as JournalOp[];
  for (let i = 0; i < count; i++) {
    const id = newTransactionId();
    const record = newRecord(id, '/home/someone/src/app', [], ops);
    record.state = state;
    record.seq = 4;
    ids.push(id);
    fs.mkdirSync(path.join(journalDir, id, 'backup'), { recursive: true });
    fs.writeFileSync(path.join(journalDir, id, 'state-000004.json'), JSON.stringify(record));
  }
  return ids;
}

/** A registry row for each commit, as a commit records it (written paths included): the look checks each committed journal has one. */
function recordCommits(dataDir: string, ids: string[]): void {
  openBindery(dataDir).close();
  const db = new Sqlite(path.join(dataDir, 'bindery.db'));
  db.pragma('foreign_keys = OFF');
  const insert = db.prepare(`INSERT INTO sandbox_commits (id, sandbox_id, plan_id, transaction_id, written, deleted, git_commit, undone_at, created_at, committed) VALUES (?, 'S', 'P', ?, ?, '[]', NULL, NULL, '2026-01-01T00:00:00.000Z', '{}')`);
  const written = JSON.stringify(Array.from({ length: 1000 }, (_, index) => `src/dir${index % 20}/file${index}.ts`));
  db.transaction(() => ids.forEach((id, index) => insert.run(`C${index}`, id, written)))();
  db.close();
}

async function measure(label: string, journals: number, state: 'rolled_back' | 'committed' = 'rolled_back'): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-start-bench-'));
  const ids = settledJournals(path.join(dataDir, 'journal'), journals, state);
  if (state === 'committed') recordCommits(dataDir, ids);
  const opens: number[] = [];
  const looks: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let began = performance.now();
    const core = openBindery(dataDir);
    opens.push(performance.now() - began);
    began = performance.now();
    const started = await core.start();
    looks.push(performance.now() - began);
    if (started.report !== null) throw new Error('the bench data dir should hold no interrupted work');
    core.close();
  }
  const look = median(looks);
  const open = median(opens);
  console.log(`${label.padEnd(28)} start() ${look.toFixed(2).padStart(7)} ms   openBindery ${open.toFixed(2).padStart(7)} ms   ratio ${(look / open).toFixed(2)}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await measure('brand-new data directory', 0);
await measure('100 settled commits', 100);
await measure('1,000 settled commits', 1000);
// Committed and recorded, as a commit leaves them: the look matches each against the registry.
await measure('1,000 recorded commits', 1000, 'committed');
