import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

/** How many objects the repository holds, loose and packed. */
function objectCount(repo: string): number {
  const stats = Object.fromEntries(git(repo, 'count-objects', '-v').trim().split('\n').map((line) => line.split(': ') as [string, string]));
  return Number(stats.count) + Number(stats['in-pack']);
}

/** Files below the repository's `.git` whose names start with `tmp_`. */
function tempObjects(repo: string): string[] {
  return (fs.readdirSync(path.join(repo, '.git'), { recursive: true }) as string[]).filter((rel) => path.basename(rel).startsWith('tmp_'));
}

/** A repository with a dirty working state (an edit and an untracked file), so a sandbox needs a snapshot commit. */
function dirtyRepo(): string {
  const repo = gitRepo({ 'a.txt': 'a\n', 'd/b.txt': 'b\n' });
  writeFiles(repo, { 'a.txt': 'edited, not committed\n', 'd/new.txt': 'untracked\n' });
  return repo;
}

describe('objects a snapshot adds to the user’s repository', () => {
  it('leave with the last Bindery sandbox, and come back with a restore from the trash', async () => {
    const { manager, plan } = newManager();
    const repo = dirtyRepo();
    const before = objectCount(repo);
    const request = { planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' as const };
    const first = await manager.getOrCreateSandbox(request);
    const second = await manager.getOrCreateSandbox({ ...request, planId: plan() });
    expect(objectCount(repo)).toBeGreaterThan(before);
    writeFiles(first.path, { 'a.txt': 'the tool’s edit\n' });

    const done = (await manager.discard(first.id, { yes: true })) as { trashId: string };
    // The second sandbox's base shares the snapshot's blobs and trees: nothing goes while it lives.
    expect(git(second.path, 'fsck', '--no-dangling').trim()).toBe('');
    await manager.discard(second.id);
    expect(objectCount(repo)).toBe(before);

    await manager.restoreTrash(done.trashId);
    expect(fs.readFileSync(path.join(first.path, 'd', 'new.txt'), 'utf8')).toBe('untracked\n');
    expect((await manager.changes(first.id)).changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['modified a.txt']);
    await manager.discard(first.id, { yes: true });
    expect(objectCount(repo)).toBe(before);
    expect(git(repo, 'fsck').trim()).toBe('');
  });

  it('stay when the user committed the same state meanwhile', async () => {
    const { manager, plan } = newManager();
    const repo = dirtyRepo();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'the same state');
    await manager.discard(sandbox.id);
    expect(git(repo, 'fsck', '--no-dangling').trim()).toBe('');
    expect(git(repo, 'show', 'HEAD:d/new.txt')).toBe('untracked\n');
  });

  it('leave no tmp_obj file in the user’s .git when git fails mid-way writing them', async () => {
    const { manager, plan } = newManager();
    const repo = dirtyRepo();
    // Incompressible and over the file size limit below: git dies of SIGXFSZ while writing its object.
    fs.writeFileSync(path.join(repo, 'big.bin'), randomBytes(200_000));
    const before = objectCount(repo);
    const bin = tempDir('bindery-git-wrapper-');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    fs.writeFileSync(path.join(bin, 'git'), ['#!/bin/sh', 'case " $* " in *" add "*) ulimit -f 100;; esac', `exec "${realGit}" "$@"`, ''].join('\n'), { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${saved}`;
    try {
      const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
      expect(sandbox).toMatchObject({ strategy: 'copy_on_write', fallbackReason: expect.stringMatching(/SIGXFSZ/) });
    } finally {
      process.env.PATH = saved;
    }
    expect(tempObjects(repo)).toEqual([]);
    expect(objectCount(repo)).toBe(before);
    expect(fs.readdirSync(manager.layout.tempDir).filter((name) => /^(objects|index)-/.test(name))).toEqual([]);
  });
});
