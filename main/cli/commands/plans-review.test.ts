/**
 * `bindery plans notes ...` and `bindery plans run` end to end on a real repository: notes through
 * main(), the re-run as a real process that streams the tool's output and exits with its status.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPlan, runCli, runCliProcess } from '../../testing/cli-process.ts';
import type { RunInfo } from '../../../shared/dto.ts';
import { parseLines, runExitCode } from './plans-review.ts';

// Shows what it received, says something on each stream, and exits with the code in the sandbox's EXIT file (killed by the signal in SIGNAL).
const RUN =
  'cp "$BINDERY_REVIEW_NOTES" received.json; echo "to stdout"; echo "to stderr" >&2; [ -f SIGNAL ] && kill -s "$(cat SIGNAL)" $$; exit "$(cat EXIT 2>/dev/null || echo 0)"';
const TOOL = `name: fixer\nrun: ${JSON.stringify(RUN)}\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n`;

interface WireNote {
  id: string;
  status: string;
  outdated: boolean;
  anchor_text: string | null;
  side: string | null;
  from_line: number | null;
  to_line: number | null;
  body: string;
}

async function seeded() {
  const { data, planId, sandboxPath } = await cliPlan('fixer', TOOL, { 'src/app.ts': 'one\ntwo\nthree\n' });
  return { data, plan: planId, sandbox: sandboxPath };
}

describe('bindery plans notes', () => {
  it('adds, lists, edits, resolves, reopens and deletes notes, with --json everywhere', async () => {
    const { data, plan, sandbox } = await seeded();
    fs.writeFileSync(path.join(sandbox, 'src/app.ts'), 'one\nTWO\nthree\n');
    const added = await runCli(data, ['--json', 'plans', 'notes', 'add', plan, '--resource', 'repo', '--path', 'src/app.ts', '--lines', 'old:1-2', '-m', 'keep two lower-case']);
    expect(added.code, added.stdout).toBe(0);
    const note = added.json<WireNote>();
    expect(note).toMatchObject({ side: 'old', from_line: 1, to_line: 2, anchor_text: 'one\ntwo', status: 'open', outdated: false });
    const human = await runCli(data, ['plans', 'notes', 'add', plan, '-m', 'add a test']);
    expect(human.stdout).toMatch(/^Added note \S+ on the plan\.\n$/);

    const table = await runCli(data, ['plans', 'notes', 'list', plan]);
    expect(table.stdout).toMatch(new RegExp(`${note.id}\\s+open\\s+local/app src/app\\.ts:old:1-2\\s+keep two lower-case`));
    expect((await runCli(data, ['plans', 'notes', 'edit', note.id.slice(0, 12), '-m', 'keep "two" as it was'])).stdout).toBe(`Edited note ${note.id}.\n`);
    expect((await runCli(data, ['plans', 'notes', 'resolve', note.id])).stdout).toBe(`Resolved note ${note.id}.\n`);
    const open = (await runCli(data, ['--json', 'plans', 'notes', 'list', plan, '--open'])).json<WireNote[]>();
    expect(open.map((n) => n.body)).toEqual(['add a test']);
    const reopened = (await runCli(data, ['--json', 'plans', 'notes', 'resolve', note.id, '--reopen'])).json<WireNote>();
    expect([reopened.status, reopened.body]).toEqual(['open', 'keep "two" as it was']);

    const unconfirmed = await runCli(data, ['plans', 'notes', 'delete', note.id]);
    expect([unconfirmed.code, unconfirmed.stderr]).toEqual([1, expect.stringContaining('Nothing was deleted') as unknown]);
    expect((await runCli(data, ['--json', 'plans', 'notes', 'delete', note.id, '--yes'])).json()).toEqual({ deleted: true, id: note.id });
    const gone = await runCli(data, ['--json', 'plans', 'notes', 'delete', note.id, '--yes']);
    expect([gone.code, gone.json<{ error: { code: string } }>().error.code]).toEqual([1, 'not_found']);
    const bad = await runCli(data, ['plans', 'notes', 'add', plan, '--resource', 'repo', '--path', 'src/app.ts', '--lines', 'mid:3', '-m', 'x']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--lines takes [old:|new:]from[-to]') as unknown]);
  });

  it('exits as a shell reports a command: its code, 128 + a killing signal, 130 when stopped, 124 on the timeout', () => {
    const run = (over: Partial<RunInfo>) => runExitCode({ status: 'failed', exitCode: null, signal: null, ...over } as RunInfo);
    expect([run({ status: 'exited', exitCode: 0 }), run({ exitCode: 7 }), run({ signal: 'SIGTERM' }), run({ signal: 'SIGKILL' })]).toEqual([0, 7, 143, 137]);
    expect([run({ status: 'stopped', signal: 'SIGTERM' }), run({ status: 'timed_out', exitCode: 143 }), run({})]).toEqual([130, 124, 1]);
  });

  it('parses --lines with the sandbox side as the default', () => {
    expect(parseLines('12')).toEqual({ side: 'new', fromLine: 12, toLine: 12 });
    expect(parseLines('old:10-14')).toEqual({ side: 'old', fromLine: 10, toLine: 14 });
    expect(() => parseLines('new:14-10')).toThrow(/--lines takes/);
    expect(() => parseLines('0')).toThrow(/--lines takes/);
  });
});

describe('bindery plans run', () => {
  it("runs the tool again with the open notes, streaming its output and exiting with its status", async () => {
    const { data, plan, sandbox } = await seeded();
    expect((await runCli(data, ['plans', 'notes', 'add', plan, '--resource', 'repo', '--path', 'src/app.ts', '--lines', '3', '-m', 'three is wrong'])).code).toBe(0);

    const ran = runCliProcess(data, ['plans', 'run', plan]);
    expect([ran.status, ran.stdout, ran.stderr.replace(/^bindery: the CLI bundle.*\n/m, '')]).toEqual([0, 'to stdout\n', 'to stderr\n']);
    const received = JSON.parse(fs.readFileSync(path.join(sandbox, 'received.json'), 'utf8')) as { plan_id: string; notes: Array<{ body: string; anchor_text: string }> };
    expect(received.plan_id).toBe(plan);
    expect(received.notes.map((n) => [n.body, n.anchor_text])).toEqual([['three is wrong', 'three']]);

    fs.writeFileSync(path.join(sandbox, 'EXIT'), '7\n');
    const failed = runCliProcess(data, ['--json', 'plans', 'run', plan]);
    expect(failed.status).toBe(7);
    const run = JSON.parse(failed.stdout) as { status: string; exit_code: number; output: Array<{ stream: string; text: string }> };
    expect([run.status, run.exit_code, run.output.map((c) => c.text).join('')]).toEqual(['failed', 7, expect.stringContaining('to stdout') as unknown]);

    // Killed by a signal: 128 + its number, as a shell says, not a bare 1.
    fs.writeFileSync(path.join(sandbox, 'SIGNAL'), 'KILL\n');
    const killed = runCliProcess(data, ['plans', 'run', plan]);
    expect([killed.status, killed.stderr]).toEqual([137, expect.stringContaining('exited with signal SIGKILL') as unknown]);
  }, 120_000);
});
