import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { CancelledError } from '../../../shared/errors.ts';
import { provisionWorktree } from './git-worktree.ts';
import { exists, gitFingerprint, newManager } from '../../testing/sandbox/harness.ts';

describe('git_worktree provisioning: filters, nested repositories, sparse checkouts, cancels', () => {
  it("gives changed and untracked files the original's own bytes where git's filters would convert their line endings", async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ '.gitattributes': '*.txt text eol=crlf\n', 'a.txt': 'a\r\n' });
    writeFiles(repo, { 'a.txt': 'edited with LF\n', 'new.txt': 'one\ntwo\n', 'notes/deep/more.txt': 'lf\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox.strategy).toBe('git_worktree');
    for (const rel of ['a.txt', 'new.txt', 'notes/deep/more.txt']) expect(fs.readFileSync(path.join(sandbox.path, rel))).toEqual(fs.readFileSync(path.join(repo, rel)));
    expect((await manager.changes(sandbox.id)).changes).toEqual([]);
  });

  it('copies instead, saying which, when the checkout holds git repositories that are not submodules', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'src/main.js': 'main\n' });
    for (const nested of ['vendor/dep', 'src/inner']) {
      writeFiles(path.join(repo, nested), { 'dep.js': `${nested}\n` });
      git(path.join(repo, nested), 'init', '-q');
      git(path.join(repo, nested), 'add', '-A');
      git(path.join(repo, nested), 'commit', '-q', '-m', 'dep');
    }
    const before = gitFingerprint(repo);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox.strategy).toBe('copy_on_write');
    expect(sandbox.fallbackReason).toMatch(/git repositories that are not submodules \((src\/inner, vendor\/dep|vendor\/dep, src\/inner)\)/);
    expect(fs.readFileSync(path.join(sandbox.path, 'vendor/dep/dep.js'), 'utf8')).toBe('vendor/dep\n');
    expect(gitFingerprint(repo)).toEqual(before);
  });

  it('copies instead, saying which, when a submodule is populated', async () => {
    const { manager, plan } = newManager();
    const library = gitRepo({ 'lib.txt': 'lib\n' });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', library, 'vendor/lib');
    git(repo, 'commit', '-q', '-m', 'add a submodule');
    const before = gitFingerprint(repo);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox).toMatchObject({ strategy: 'copy_on_write', fallbackReason: expect.stringMatching(/populated submodules \(vendor\/lib\)/) });
    expect(fs.readFileSync(path.join(sandbox.path, 'vendor/lib/lib.txt'), 'utf8')).toBe('lib\n');
    expect(gitFingerprint(repo)).toEqual(before);
  });

  it('carries a locally edited skip-worktree file over as it is, and keeps what a sparse checkout left out', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'config.json': '{"db":"prod"}\n', 'in/a.txt': 'a\n', 'out/b.txt': 'b\n' });
    git(repo, 'update-index', '--skip-worktree', 'config.json');
    writeFiles(repo, { 'config.json': '{"db":"local"}\n' });
    const hidden = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(hidden.strategy).toBe('git_worktree');
    expect(fs.readFileSync(path.join(hidden.path, 'config.json'), 'utf8')).toBe('{"db":"local"}\n');
    git(repo, 'update-index', '--no-skip-worktree', 'config.json');
    git(repo, 'checkout', '--', 'config.json');
    git(repo, 'sparse-checkout', 'set', '--no-cone', '/*', '!/out/');
    writeFiles(repo, { 'in/a.txt': 'edited\n' });
    const sparse = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(git(repo, 'ls-tree', '-r', '--name-only', sparse.baseCommit as string).split('\n')).toContain('out/b.txt');
  });

  it('gives a worktree to a dirty original whose submodule is not populated, even when the user has submodule.recurse on', async () => {
    const { manager, plan } = newManager();
    const library = gitRepo({ 'lib.txt': 'lib\n' });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', library, 'vendor/lib');
    git(repo, 'commit', '-q', '-m', 'add a submodule');
    // Emptied, not deinitialized: still active, so a recursing checkout would go into it.
    fs.rmSync(path.join(repo, 'vendor/lib'), { recursive: true });
    fs.mkdirSync(path.join(repo, 'vendor/lib'));
    git(repo, 'config', 'submodule.recurse', 'true');
    writeFiles(repo, { 'a.txt': 'edited\n' });
    const before = gitFingerprint(repo);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox).toMatchObject({ strategy: 'git_worktree', fallbackReason: null });
    expect(fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8')).toBe('edited\n');
    expect(git(sandbox.path, 'rev-parse', 'HEAD').trim()).toBe(sandbox.baseCommit);
    await manager.discard(sandbox.id, { yes: true });
    expect(gitFingerprint(repo)).toEqual(before);
  });

  it('a cancel at any moment of a cancellable checkout leaves the repository as it was', async () => {
    const repo = gitRepo(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`d${i % 7}/f${i}.txt`, `line ${i}\n`.repeat(30)])));
    writeFiles(repo, { 'd0/f0.txt': 'dirty\n' });
    const before = gitFingerprint(repo);
    const outcomes = new Set<string>();
    for (const delayMs of [0, 2, 5, 10, 20, 40, 80, 160]) {
      const sandboxPath = path.join(tempDir('bindery-sandboxes-'), 'app');
      const controller = new AbortController();
      setTimeout(() => controller.abort(), delayMs);
      const request = { repo, sandboxPath, ref: 'refs/bindery/P/S', planId: 'P', tempDir: tempDir('bindery-tmp-') };
      const outcome = await provisionWorktree({ ...request, signal: controller.signal, cancellableFromIndexBytes: 0 }).then(
        () => 'made',
        (error: unknown) => (error instanceof CancelledError ? 'cancelled' : `failed: ${(error as Error).message}`),
      );
      outcomes.add(outcome);
      if (outcome === 'made') {
        expect(git(sandboxPath, 'status', '--porcelain')).toBe('');
        git(repo, 'worktree', 'remove', '--force', '--force', sandboxPath);
        git(repo, 'update-ref', '-d', 'refs/bindery/P/S');
      } else {
        expect(outcome).toBe('cancelled');
        expect(exists(sandboxPath)).toBe(false);
      }
      expect(gitFingerprint(repo), `cancelled after ${delayMs} ms`).toEqual(before);
      const admin = path.join(repo, '.git', 'worktrees');
      expect(exists(admin) ? fs.readdirSync(admin) : []).toEqual([]);
    }
    expect(outcomes.has('cancelled')).toBe(true);
  });
});
