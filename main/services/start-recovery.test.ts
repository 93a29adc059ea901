/**
 * Recovery at every host's start: a commit SIGKILLed in the middle of its renames is finished or
 * undone by the next CLI command of any kind (run through main()), and doctor says so.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../testing/fixtures.ts';
import { runCli } from '../testing/cli-process.ts';
import { TEMP_PREFIX } from '../sandbox/commit/journal/index.ts';
import { newTransactionId } from '../sandbox/commit/journal/journal-file.ts';
import { openBindery } from './bindery.ts';
import { findInterruptedWork } from './start-recovery.ts';
import { tsxArgs } from '../testing/child-process.ts';

const FILES = 60;
const crashChild = path.join(import.meta.dirname, '../testing/sandbox/commit-crash-child.ts');
const TOOL = 'resource_slots:\n  - name: site\n    resource_type: fs-directory\n    access: read_write\n';

interface DoctorJson {
  ok: boolean;
  checks: Array<{ name: string; ok: boolean; detail: string }>;
}

function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const next = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) visit(next);
      else out[next] = fs.readFileSync(path.join(root, next), 'utf8');
    }
  };
  visit('');
  return out;
}

/** A plan over one folder whose sandbox changes every file, and a child process killed at `point` of its commit (by default after its first rename). */
async function killedMidCommit(point: 'replaced' | 'finished' = 'replaced') {
  const data = tempDir('bindery-start-');
  const original = tempDir('bindery-orig-');
  const names = Array.from({ length: FILES }, (_, i) => `d${i % 3}/f${i}.txt`);
  writeFiles(original, Object.fromEntries(names.map((name, i) => [name, `old ${i}\n`])));
  const toolFile = path.join(tempDir(), 'site-tool.yaml');
  fs.writeFileSync(toolFile, TOOL);
  for (const args of [
    ['resources', 'add', 'local/site', '--type', 'fs-directory', '--location', original],
    ['projects', 'add', 'demo'],
    ['projects', 'link', 'demo', 'local/site'],
    ['tools', 'import', toolFile],
  ]) {
    const run = await runCli(data, args);
    expect(run.code, run.stderr).toBe(0);
  }
  const created = await runCli(data, ['--json', 'plans', 'create', 'site-tool', '--project', 'demo']);
  expect(created.code, created.stderr).toBe(0);
  const planId = created.json<{ plan_id: string }>().plan_id;
  const core = openBindery(data);
  const sandbox = core.plans.showPlan(planId).sandboxes[0]!;
  core.close();
  writeFiles(sandbox.path, Object.fromEntries(names.map((name, i) => [name, `new ${i}\n`])));
  const before = tree(original);
  const after = Object.fromEntries(Object.entries(before).map(([rel, text]) => [rel, text.replace('old', 'new')]));
  const run = spawnSync(process.execPath, tsxArgs(crashChild, [data, sandbox.id, point]), { encoding: 'utf8' });
  expect(run.signal, run.stderr).toBe('SIGKILL');
  if (point === 'finished') return { data, original, planId, before, after };
  // Half written: the state the issue found, which `plans show` called ready.
  const half = tree(original);
  expect(Object.keys(half).some((rel) => path.basename(rel).startsWith(TEMP_PREFIX))).toBe(true);
  expect(Object.values(half).filter((text) => text.startsWith('new')).length).toBeGreaterThan(0);
  expect(Object.values(half).filter((text) => text.startsWith('old')).length).toBeGreaterThan(0);
  return { data, original, planId, before, after };
}

/** The original holds every old or every new file, and nothing of Bindery's. */
function expectWhole(original: string, before: Record<string, string>, after: Record<string, string>): 'old' | 'new' {
  const now = tree(original);
  if (JSON.stringify(now) === JSON.stringify(before)) return 'old';
  expect(now).toEqual(after);
  return 'new';
}

const doctor = async (data: string) => (await runCli(data, ['--json', 'doctor'])).json<DoctorJson>();
const check = (report: DoctorJson, name: string) => report.checks.find((c) => c.name === name)!;

describe('a commit killed in the middle of its renames', () => {
  it('is finished or undone by the next command of any kind (plans show), before it shows the plan', async () => {
    const { data, original, planId, before, after } = await killedMidCommit();
    const shown = await runCli(data, ['--json', 'plans', 'show', planId]);
    expect(shown.code, shown.stderr).toBe(0);
    const outcome = expectWhole(original, before, after);
    expect(shown.stderr).toMatch(outcome === 'new' ? /Recovery at start finished 1 interrupted commit/ : /rolled back 1 interrupted commit/);
    const plan = shown.json<{ sandboxes: Array<{ status: string }> }>();
    expect(plan.sandboxes.map((s) => s.status)).toEqual([outcome === 'new' ? 'committed' : 'ready']);
    const core = openBindery(data);
    expect(await findInterruptedWork(core.db, core.sandboxes.layout)).toMatchObject({ transactions: [], unrecorded: [], trash: [], provisioning: [] });
    core.close();
    const report = await doctor(data);
    expect(check(report, 'interrupted work')).toMatchObject({ ok: true, detail: expect.stringMatching(/No interrupted work found/) });
  });

  it('is finished or undone by a command that never looks at plans (types list)', async () => {
    const { data, original, before, after } = await killedMidCommit();
    const listed = await runCli(data, ['types', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('fs-directory');
    expectWhole(original, before, after);
  });

  it('is reported by doctor, which finishes or undoes it too', async () => {
    const { data, original, before, after } = await killedMidCommit();
    const report = await doctor(data);
    const outcome = expectWhole(original, before, after);
    expect(check(report, 'interrupted work')).toMatchObject({
      ok: true,
      detail: expect.stringMatching(outcome === 'new' ? /Recovery at start finished 1 interrupted commit \([0-9A-Z]{26}\)/ : /rolled back 1 interrupted commit/),
    });
  });

  it('waits while its folder is away: commands still run and say so, doctor fails the check with the reason, and the folder coming back finishes it', async () => {
    const { data, original, before, after } = await killedMidCommit();
    const away = `${original}-away`;
    fs.renameSync(original, away);
    const listed = await runCli(data, ['types', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/waits: its folder .* is not there as it was.*Run "bindery doctor"/s);
    const report = await doctor(data);
    expect(report.ok).toBe(false);
    expect(check(report, 'interrupted work')).toMatchObject({ ok: false, detail: expect.stringMatching(/waits: its folder/) });
    fs.renameSync(away, original);
    expect((await runCli(data, ['types', 'list'])).code).toBe(0);
    expectWhole(original, before, after);
  });
});

describe('a commit killed after its journal said committed, before the registry recorded it', () => {
  it('is found by the start-up look, and doctor says whether recovery could record it', async () => {
    const { data, original, before, after } = await killedMidCommit('finished');
    expect(expectWhole(original, before, after)).toBe('new');
    const core = openBindery(data);
    const found = await findInterruptedWork(core.db, core.sandboxes.layout);
    core.close();
    expect(found).toMatchObject({ transactions: [], unrecorded: [expect.stringMatching(/^[0-9A-Z]{26}$/)] });
    const report = await doctor(data);
    const reopened = openBindery(data);
    const recorded = reopened.db.prepare('SELECT count(*) FROM sandbox_commits').pluck().get();
    reopened.close();
    // Recording it is recovery's part (issue 20 item 5); until it can, doctor must not call the data directory healthy.
    if (recorded === 1) expect(check(report, 'interrupted work').ok).toBe(true);
    else expect(check(report, 'interrupted work')).toMatchObject({ ok: false, detail: expect.stringMatching(/has no record of it .* undo cannot find it/) });
  });
});

describe('the start-up look', () => {
  it('finds nothing in a brand-new data directory, and in one whose commits all settled', async () => {
    const data = tempDir('bindery-start-');
    const core = openBindery(data);
    const started = await core.start();
    expect(started.found).toEqual({ transactions: [], unrecorded: [], trash: [], provisioning: [], busy: 0 });
    expect(started.report).toBeNull();
    expect(await core.start()).toBe(started);
    core.close();
  });
});

describe('a settled journal recovery has nothing to do with', () => {
  it('is not interrupted work: a commit left unrecorded whose sandbox was discarded meanwhile does not rerun recovery at every start', async () => {
    const { data } = await killedMidCommit('finished');
    const core = openBindery(data);
    const [sandbox] = core.db.prepare('SELECT id FROM sandboxes').pluck().all() as string[];
    // Another process (the app) discarded the sandbox before any start recovered the commit: recovery cannot record it.
    core.db.prepare("UPDATE sandboxes SET status = 'discarded' WHERE id = ?").run(sandbox);
    core.close();
    for (let round = 0; round < 2; round++) {
      const again = openBindery(data);
      const started = await again.start();
      again.close();
      expect(started.found.unrecorded).toEqual([]);
      expect(started.report).toBeNull();
    }
    expect(check(await doctor(data), 'interrupted work').ok).toBe(true);
  });
});

describe('a commit another process is starting right now', () => {
  it('is left to it: its journal folder without a state yet is busy, not interrupted, and runs no recovery', async () => {
    const data = tempDir('bindery-start-');
    const core = openBindery(data);
    await core.start();
    const id = newTransactionId();
    fs.mkdirSync(path.join(core.sandboxes.layout.journalDir, id), { recursive: true });
    const found = await findInterruptedWork(core.db, core.sandboxes.layout);
    core.close();
    expect(found).toMatchObject({ transactions: [], busy: 1 });
    const again = openBindery(data);
    const started = await again.start();
    again.close();
    expect(started.report).toBeNull();
    expect(fs.existsSync(path.join(data, 'journal', id))).toBe(true);
  });
});
