/**
 * Test child of the commit races (commit-race.ts): commits one sandbox through a SandboxManager
 * over a shared data directory and prints `result <json>`. With BINDERY_RACE_ROLE it meets the
 * other child at fixed points (files in BINDERY_RACE_BARRIER), so both have checked before either
 * writes unless a lock keeps the second out: "first" waits at the commit point for the second's
 * check, "second" starts once the first has checked and waits at its commit point for the first to end.
 * Run: node --import tsx commit-race-child.ts <dataDir> <sandboxId>
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../registry/database.ts';
import { SqliteSandboxStore } from '../../registry/sandbox-store.ts';
import * as journal from '../../sandbox/commit/journal/index.ts';
import type { JournalHooks } from '../../sandbox/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';

const [dataDir, sandboxId] = process.argv.slice(2) as [string, string];
const role = process.env.BINDERY_RACE_ROLE as 'first' | 'second' | undefined;
const barrier = process.env.BINDERY_RACE_BARRIER ?? '';
const mark = (name: string) => fs.writeFileSync(path.join(barrier, name), '');
async function waitFor(name: string, ms: number): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until && !fs.existsSync(path.join(barrier, name)); ) await new Promise((r) => setTimeout(r, 20));
}

const hooks: JournalHooks = {
  async at(point) {
    if (point === 'checked') mark(`${role}-checked`);
    if (point === 'decided' && role === 'first') await waitFor('second-checked', 3000);
    if (point === 'decided' && role === 'second') await waitFor('first-done', 20_000);
  },
};
const db = openDatabase(path.join(dataDir, 'bindery.db'));
const manager = new SandboxManager({
  store: new SqliteSandboxStore(db),
  dataDir,
  journal: role ? { ...journal, applyTransaction: (input) => journal.applyTransaction({ ...input, hooks }) } : journal,
});
if (role === 'second') await waitFor('first-checked', 20_000);
let result: unknown;
try {
  const outcome = await manager.commit(sandboxId);
  result = outcome.kind === 'committed' ? { kind: 'committed', transactionId: outcome.commit.transactionId, written: outcome.commit.written.length } : outcome;
} catch (error) {
  result = { kind: 'error', code: (error as { code?: string }).code ?? null, message: (error as Error).message };
}
if (role) mark(`${role}-done`);
process.stdout.write(`result ${JSON.stringify(result)}\n`);
db.close();
