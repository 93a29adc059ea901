/**
 * Run checkpoints leave the user's repository with their sandbox, whatever host discards it: the
 * real `bindery` process runs the tool (recording checkpoints), then discards, restores, purges.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPlan, runCliProcess } from '../testing/cli-process.ts';
import { git } from '../testing/fixtures.ts';

// Each run appends a line to app.txt.
const TOOL = `name: appender\nrun: "echo more >> app.txt"\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n`;

const refs = (repo: string) => git(repo, 'for-each-ref', '--format=%(refname)', 'refs/bindery').trim();

function bindery(data: string, ...args: string[]): string {
  const done = runCliProcess(data, args);
  expect(done.status, `bindery ${args.join(' ')}: ${done.stderr}`).toBe(0);
  return done.stdout;
}

describe('run checkpoints and the CLI', () => {
  it('a discard keeps them in the trash entry, out of the repository; a restore puts them back, a purge ends them', async () => {
    const { data, repo, planId } = await cliPlan('appender', TOOL, { 'app.txt': 'app\n' });
    // A checkpoint writes through a private index: the user's index, HEAD, branches and stash stay as they were.
    const untouched = () => [fs.readFileSync(path.join(repo, '.git', 'index')).toString('base64'), git(repo, 'rev-parse', 'HEAD'), git(repo, 'for-each-ref', 'refs/heads', 'refs/stash')];
    const kept = untouched();
    bindery(data, 'plans', 'run', planId);
    expect(untouched()).toEqual(kept);
    const before = refs(repo).split('\n');
    expect(before.filter((ref) => ref.startsWith('refs/bindery/checkpoints/'))).toHaveLength(2);
    const status = git(repo, 'status', '--porcelain=v2', '--branch');

    const commits = git(repo, 'for-each-ref', '--format=%(objectname)', 'refs/bindery/checkpoints').trim().split('\n');

    bindery(data, 'plans', 'discard', planId, '--yes');
    expect(refs(repo)).toBe('');
    expect(git(repo, 'status', '--porcelain=v2', '--branch')).toBe(status);
    // Their objects left the repository too (the entry keeps them packed).
    for (const id of commits) expect(spawnSync('git', ['cat-file', '-e', id], { cwd: repo }).status).not.toBe(0);
    const [entry] = JSON.parse(bindery(data, '--json', 'trash', 'list')) as Array<{ id: string }>;

    bindery(data, 'trash', 'restore', entry!.id);
    expect(refs(repo).split('\n').filter((ref) => ref.startsWith('refs/bindery/checkpoints/')).sort()).toEqual(before.filter((ref) => ref.startsWith('refs/bindery/checkpoints/')).sort());
    // The restored commits are whole: the run's end holds the tool's line.
    const end = before.find((ref) => ref.endsWith('-end'))!;
    expect(git(repo, 'show', `${end}:app.txt`)).toBe('app\nmore\n');

    bindery(data, 'plans', 'discard', planId, '--yes');
    expect(refs(repo)).toBe('');
    bindery(data, 'trash', 'purge', '--all');
    expect(refs(repo)).toBe('');
    expect(fs.readdirSync(path.join(data, 'trash'))).toEqual([]);
  }, 120_000);

  it('a sandbox discarded with nothing to keep leaves no checkpoint behind', async () => {
    const { data, repo, planId, sandboxPath } = await cliPlan('appender', TOOL, { 'app.txt': 'app\n' });
    bindery(data, 'plans', 'run', planId);
    expect(refs(repo)).toContain('refs/bindery/checkpoints/');
    // The run's change undone by hand: the sandbox equals its base, so no trash entry is made.
    fs.writeFileSync(path.join(sandboxPath, 'app.txt'), 'app\n');
    bindery(data, 'plans', 'discard', planId);
    expect(refs(repo)).toBe('');
    expect(JSON.parse(bindery(data, '--json', 'trash', 'list'))).toEqual([]);
  }, 120_000);
});
