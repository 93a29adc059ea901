/**
 * The objects a restore puts back into a user's repository, while a discard in another process
 * prunes what Bindery added there: the restore's objects must survive until its ref holds them.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, writeFiles } from '../../testing/fixtures.ts';
import { pruneAddedObjects } from './git-objects.ts';
import { newManager } from '../../testing/sandbox/harness.ts';
import { tsxArgs } from '../../testing/child-process.ts';

const child = path.join(import.meta.dirname, '../../testing/sandbox/trash-crash-child.ts');

describe('a restore in one process and a prune in another', () => {
  it('keeps the objects the restore put back: the prune waits for its ref', async () => {
    const { manager, plan, dataDir } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    writeFiles(repo, { 'a.txt': 'dirty in the original\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'b.txt': 'work\n' });
    const { trashId } = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    const base = sandbox.baseCommit!;
    // The discard pruned the snapshot it added; the trash keeps it packed.
    expect(() => git(repo, 'cat-file', '-e', base)).toThrow();

    // The child pauses once its snapshot's objects are back in the repository, before its ref and worktree.
    const proc = spawn(process.execPath, tsxArgs(child, [dataDir, 'restore', trashId, 'writeFile', 'restoring', '1', 'pause']), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const ended = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
    while (!fs.existsSync(path.join(dataDir, 'paused'))) await new Promise((resolve) => setTimeout(resolve, 20));
    const pruning = pruneAddedObjects(repo, path.join(dataDir, 'tmp'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    fs.writeFileSync(path.join(dataDir, 'go'), '');
    const [pruned] = await Promise.all([pruning, ended]);

    expect(JSON.parse(out)).toMatchObject({ ok: { status: 'ready' } });
    expect(pruned).toEqual([]);
    expect(fs.readFileSync(path.join(sandbox.path, 'b.txt'), 'utf8')).toBe('work\n');
    expect(fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8')).toBe('dirty in the original\n');
  });
});
