import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { inspectOriginal, type OriginalRepo } from '../changes/index.ts';
import { CancelledError } from '../../../shared/errors.ts';
import { provisionWorktree } from './git-worktree.ts';
import { exists, gitFingerprint, newManager } from '../../testing/sandbox/harness.ts';

async function inspected(repo: string): Promise<OriginalRepo> {
  const original = await inspectOriginal(repo);
  if ('reason' in original) throw new Error(original.reason);
  return original;
}

/**
 * Runs `work` with a `git` in front of the real one (`$WRAP_REAL_GIT`): the shell `lines` run
 * first, with `variables` set, then the real git with the same arguments.
 */
async function withGitWrapper<T>(lines: string[], variables: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const bin = tempDir('bindery-git-wrapper-');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  fs.writeFileSync(path.join(bin, 'git'), ['#!/bin/sh', ...lines, 'exec "$WRAP_REAL_GIT" "$@"', ''].join('\n'), { mode: 0o755 });
  const saved = { ...process.env };
  Object.assign(process.env, { PATH: `${bin}${path.delimiter}${process.env.PATH}`, WRAP_REAL_GIT: realGit, ...variables });
  try {
    return await work();
  } finally {
    process.env = saved;
  }
}

/** The names created or removed directly in `dir` while `work` ran (seen by a watcher). */
async function namesCreatedIn(dir: string, work: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const watcher = fs.watch(dir, (_event, name) => {
    if (name) seen.push(String(name));
  });
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    watcher.close();
  }
  return seen;
}

describe('inspectOriginal', () => {
  it('gives HEAD, its tree, clean or dirty, and the ignored files in one look', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n', '.gitignore': '.env\nnode_modules/\n' });
    writeFiles(repo, { '.env': 'SECRET=1\n', 'node_modules/x/index.js': 'x', 'node_modules/y/index.js': 'y' });
    const clean = await inspected(repo);
    expect(clean).toMatchObject({ head: git(repo, 'rev-parse', 'HEAD').trim(), tree: git(repo, 'rev-parse', 'HEAD^{tree}').trim(), dirty: false });
    expect(clean.index).toBe(path.join(repo, '.git', 'index'));
    expect(clean.ignored).toEqual({ sample: ['.env', 'node_modules/'], count: 2 });
    writeFiles(repo, { 'new.txt': 'untracked\n' });
    expect((await inspected(repo)).dirty).toBe(true);
  });

  it('says why a folder cannot host a worktree sandbox', async () => {
    const plain = tempDir('bindery-plain-');
    expect(await inspectOriginal(plain)).toEqual({ reason: expect.stringMatching(/is not a usable git work tree/) });
    const repo = gitRepo({ 'sub/inner.txt': 'i' });
    expect(await inspectOriginal(path.join(repo, 'sub'))).toEqual({ reason: expect.stringMatching(/is inside the work tree .* but is not its root/) });
    const bare = tempDir('bindery-bare-');
    git(bare, 'init', '-q', '--bare');
    expect(await inspectOriginal(bare)).toEqual({ reason: expect.stringMatching(/is a bare repository/) });
  });

  it('has no HEAD in a repository without commits', async () => {
    const repo = tempDir('bindery-empty-repo-');
    git(repo, 'init', '-q');
    writeFiles(repo, { 'first.txt': 'hello\n' });
    expect(await inspected(repo)).toMatchObject({ head: null, tree: null, dirty: true, index: path.join(repo, '.git', 'index') });
  });
});

describe('git_worktree provisioning', () => {
  it('starts a clean original at HEAD itself, reports its ignored files, and changes nothing in .git but the ref and the worktree entry', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n', '.gitignore': '.env\n' });
    writeFiles(repo, { '.env': 'SECRET=1\n' });
    const objectsBefore = git(repo, 'count-objects', '-v');
    const before = gitFingerprint(repo);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox).toMatchObject({ strategy: 'git_worktree', baseCommit: git(repo, 'rev-parse', 'HEAD').trim(), ignoredFiles: ['.env'], ignoredCount: 1 });
    expect(git(repo, 'rev-parse', sandbox.baseRef as string).trim()).toBe(sandbox.baseCommit);
    expect(exists(path.join(sandbox.path, '.env'))).toBe(false);
    expect(fs.readFileSync(path.join(sandbox.path, 'sub/b.txt'), 'utf8')).toBe('b\n');
    expect(git(repo, 'count-objects', '-v')).toBe(objectsBefore);
    const { worktrees: _w, ...withoutWorktrees } = before;
    expect(gitFingerprint(repo, { skipBinderyRefs: true })).toEqual(withoutWorktrees);
    expect(git(repo, 'worktree', 'list', '--porcelain')).toMatch(/locked/);
    await manager.discard(sandbox.id, { yes: true });
    expect(gitFingerprint(repo)).toEqual(before);
  });

  it('starts at HEAD when the index differs but the working files equal HEAD', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    writeFiles(repo, { 'a.txt': 'staged\n' });
    git(repo, 'add', 'a.txt');
    writeFiles(repo, { 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox.baseCommit).toBe(git(repo, 'rev-parse', 'HEAD').trim());
    expect(git(repo, 'diff', '--cached', '--name-only').trim()).toBe('a.txt');
  });

  it('when the ref cannot be made, removes the worktree it made and leaves the ref that was there', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    writeFiles(repo, { 'a.txt': 'edited\n' });
    git(repo, 'update-ref', 'refs/bindery/P/S', head);
    const worktreesBefore = git(repo, 'worktree', 'list', '--porcelain');
    const sandboxPath = path.join(tempDir('bindery-sandboxes-'), 'app');
    const attempt = provisionWorktree({ repo, sandboxPath, ref: 'refs/bindery/P/S', planId: 'P', tempDir: tempDir('bindery-tmp-') });
    await expect(attempt).rejects.toThrow(/update-ref/);
    expect(git(repo, 'rev-parse', 'refs/bindery/P/S').trim()).toBe(head);
    expect(git(repo, 'worktree', 'list', '--porcelain')).toBe(worktreesBefore);
    expect(exists(sandboxPath)).toBe(false);
  });

  it('gives a worktree to an original that is itself a linked worktree (its .git a file), from its own working state', async () => {
    const { manager, plan } = newManager();
    const main = gitRepo({ 'a.txt': 'main\n' });
    writeFiles(main, { 'a.txt': 'next\n' });
    git(main, 'commit', '-q', '-am', 'next');
    const linked = path.join(tempDir('bindery-linked-'), 'linked');
    git(main, 'worktree', 'add', '-q', '--detach', linked, 'HEAD~1');
    writeFiles(linked, { 'b.txt': 'untracked\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: linked, sandboxStrategy: 'git_worktree' });
    expect(sandbox).toMatchObject({ strategy: 'git_worktree', fallbackReason: null });
    expect(fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8')).toBe('main\n');
    expect(fs.readFileSync(path.join(sandbox.path, 'b.txt'), 'utf8')).toBe('untracked\n');
    expect(git(linked, 'rev-parse', `${sandbox.baseCommit}^`).trim()).toBe(git(linked, 'rev-parse', 'HEAD').trim());
    expect((await manager.changes(sandbox.id)).changes).toEqual([]);
  });

  it("never writes into a repository around the folder when the folder's .git is not a repository", async () => {
    const { manager, plan } = newManager();
    const outer = gitRepo({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
    const sub = path.join(outer, 'sub');
    fs.mkdirSync(path.join(sub, '.git'));
    const before = gitFingerprint(outer);
    const seen = await namesCreatedIn(path.join(outer, '.git'), async () => {
      const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: sub, sandboxStrategy: 'git_worktree' });
      expect(sandbox).toMatchObject({ strategy: 'copy_on_write' });
      expect(sandbox.fallbackReason).toMatch(/not its root|not a usable git work tree/);
    });
    expect(seen).not.toContain('worktrees');
    expect(gitFingerprint(outer)).toEqual(before);
  });

  it.each([
    ['reached through a symlink', (sub: string) => {
      const link = path.join(tempDir('bindery-link-'), 'sub');
      fs.symlinkSync(sub, link);
      return link;
    }],
    ['under a folder whose name holds a colon', (sub: string) => sub],
  ])('never writes into a repository around the folder when its .git is not a repository and the folder is %s', async (how, folder) => {
    const base = path.join(tempDir('bindery-outer-'), how.includes('colon') ? 'co:lon' : 'plain');
    fs.mkdirSync(base);
    const outer = path.join(base, 'outer');
    fs.renameSync(gitRepo({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n' }), outer);
    fs.mkdirSync(path.join(outer, 'sub', '.git'));
    const before = gitFingerprint(outer);
    const sandboxPath = path.join(tempDir('bindery-sandboxes-'), 'app');
    const seen = await namesCreatedIn(path.join(outer, '.git'), async () => {
      const made = await provisionWorktree({ repo: folder(path.join(outer, 'sub')), sandboxPath, ref: 'refs/bindery/P/S', planId: 'P', tempDir: tempDir('bindery-tmp-') });
      expect(made).toMatchObject({ reason: expect.stringMatching(/not its root|not a usable git work tree/) });
    });
    expect(seen).not.toContain('worktrees');
    expect(gitFingerprint(outer)).toEqual(before);
    expect(exists(sandboxPath)).toBe(false);
  });

  it('starts nothing in the repository when cancelled before it begins', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const sandboxPath = path.join(tempDir('bindery-sandboxes-'), 'app');
    const controller = new AbortController();
    controller.abort();
    const seen = await namesCreatedIn(path.join(repo, '.git'), async () => {
      await expect(provisionWorktree({ repo, sandboxPath, ref: 'refs/bindery/P/S', planId: 'P', tempDir: tempDir('bindery-tmp-'), signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
    });
    expect(seen).not.toContain('worktrees');
    expect(exists(sandboxPath)).toBe(false);
  });

  it('checks out the first commit when it lands between the checkout reading HEAD and the rev-parse', async () => {
    const repo = tempDir('bindery-unborn-');
    git(repo, 'init', '-q', '-b', 'main');
    writeFiles(repo, { 'a.txt': 'first\n' });
    const sandboxPath = path.join(tempDir('bindery-sandboxes-'), 'app');
    // After the checkout of HEAD fails (no commit yet), the first commit lands, as from another
    // terminal, and then the rev-parse runs.
    const made = await withGitWrapper(
      [
        'case " $* " in',
        '  *" worktree add "*)',
        '    "$WRAP_REAL_GIT" "$@"; code=$?',
        '    "$WRAP_REAL_GIT" -C "$WRAP_REPO" add -A && "$WRAP_REAL_GIT" -C "$WRAP_REPO" -c user.name=U -c user.email=u@x.invalid commit -q -m first',
        '    touch "$WRAP_DONE"; exit $code ;;',
        '  *" --is-bare-repository "*)',
        '    n=0; while [ ! -e "$WRAP_DONE" ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n + 1)); done ;;',
        'esac',
      ],
      { WRAP_REPO: repo, WRAP_DONE: path.join(tempDir('bindery-wrap-'), 'committed') },
      () => provisionWorktree({ repo, sandboxPath, ref: 'refs/bindery/P/S', planId: 'P', tempDir: tempDir('bindery-tmp-') }),
    );
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    expect(made).toMatchObject({ baseCommit: head, clean: true });
    expect(git(sandboxPath, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(fs.readFileSync(path.join(sandboxPath, 'a.txt'), 'utf8')).toBe('first\n');
  });

  it('starts no second checkout when cancelled while the failed checkout of HEAD is being removed', async () => {
    const repo = tempDir('bindery-unborn-');
    git(repo, 'init', '-q', '-b', 'main');
    writeFiles(repo, { 'a.txt': 'first\n' });
    const scratch = tempDir('bindery-wrap-');
    const [adds, removing] = [path.join(scratch, 'adds'), path.join(scratch, 'removing')];
    const controller = new AbortController();
    const outcome = withGitWrapper(
      [
        'case " $* " in',
        '  *" worktree add "*) echo add >> "$WRAP_ADDS" ;;',
        '  *" worktree remove "*) touch "$WRAP_REMOVING"; sleep 0.3 ;;',
        'esac',
      ],
      { WRAP_ADDS: adds, WRAP_REMOVING: removing },
      () => provisionWorktree({ repo, sandboxPath: path.join(tempDir('bindery-sandboxes-'), 'app'), ref: 'refs/bindery/P/S', planId: 'P', tempDir: tempDir('bindery-tmp-'), signal: controller.signal }),
    );
    for (let waited = 0; !exists(removing) && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(outcome).rejects.toBeInstanceOf(CancelledError);
    expect(fs.readFileSync(adds, 'utf8')).toBe('add\n');
  });

  it('ends at what the original holds, sandbox and ref alike, when HEAD moves after the checkout read it and before the rev-parse', async () => {
    const repo = gitRepo({ 'a.txt': 'first\n' });
    const first = git(repo, 'rev-parse', 'HEAD').trim();
    writeFiles(repo, { 'a.txt': 'next\n' });
    git(repo, 'commit', '-q', '-am', 'next');
    const next = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'reset', '-q', '--hard', first);
    const sandboxPath = path.join(tempDir('bindery-sandboxes-'), 'app');
    // Before the rev-parse that vets the folder runs, the checkout of HEAD reaches the sandbox, then
    // the user's HEAD and files move on, as a `git reset --hard` in another terminal would.
    const made = await withGitWrapper(
      [
        'case " $* " in',
        '  *" --is-bare-repository "*)',
        '    n=0; while [ ! -e "$WRAP_SANDBOX/a.txt" ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n + 1)); done',
        '    "$WRAP_REAL_GIT" -C "$WRAP_REPO" reset -q --hard "$WRAP_TO" ;;',
        'esac',
      ],
      { WRAP_SANDBOX: sandboxPath, WRAP_REPO: repo, WRAP_TO: next },
      () => provisionWorktree({ repo, sandboxPath, ref: 'refs/bindery/P/S', planId: 'P', tempDir: tempDir('bindery-tmp-') }),
    );
    expect(made).toMatchObject({ baseCommit: next, clean: true });
    expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(next);
    expect(git(sandboxPath, 'rev-parse', 'HEAD').trim()).toBe(next);
    expect(git(repo, 'rev-parse', 'refs/bindery/P/S').trim()).toBe(next);
    expect(fs.readFileSync(path.join(sandboxPath, 'a.txt'), 'utf8')).toBe('next\n');
    expect(git(sandboxPath, 'status', '--porcelain')).toBe('');
  });

  it.each(['GIT_DIR', 'GIT_INDEX_FILE'])('leaves the user’s HEAD and index alone when Bindery inherits %s', async (name) => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    writeFiles(repo, { 'a.txt': 'staged\n' });
    git(repo, 'add', 'a.txt');
    writeFiles(repo, { 'b.txt': 'edited\n', 'new.txt': 'new\n' });
    const { worktrees: _w, ...before } = gitFingerprint(repo);
    const saved = process.env[name];
    process.env[name] = path.join(repo, '.git', name === 'GIT_DIR' ? '' : 'index');
    try {
      const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
      expect(sandbox).toMatchObject({ strategy: 'git_worktree', fallbackReason: null });
      expect(fs.readFileSync(path.join(sandbox.path, 'b.txt'), 'utf8')).toBe('edited\n');
    } finally {
      if (saved === undefined) delete process.env[name];
      else process.env[name] = saved;
    }
    expect(gitFingerprint(repo, { skipBinderyRefs: true })).toEqual(before);
  });
});
