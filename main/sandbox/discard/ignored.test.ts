/** Ignored files of a worktree sandbox through discard and restore: put back exactly (issue 20 item 3). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

/** Each entry below `root` (`.git` left out) with its type, mode and content or target. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const name of fs.readdirSync(path.join(root, rel)).sort()) {
      const next = rel ? `${rel}/${name}` : name;
      if (next === '.git') continue;
      const full = path.join(root, next);
      const stat = fs.lstatSync(full);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isSymbolicLink()) out[next] = `link -> ${fs.readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        out[next] = `dir ${mode}`;
        visit(next);
      } else out[next] = `file ${mode} ${fs.readFileSync(full, 'utf8')}`;
    }
  };
  visit('');
  return out;
}

describe('ignored files of a worktree sandbox', () => {
  it('come back from the trash exactly: folder modes, file modes, symlinks, nested and empty folders', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', '.gitignore': '.env\nbuild/\nsecrets/\nlinked\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { '.env': 'SECRET=1\n', 'build/app.js': 'app\n', 'build/bin/run': '#!/bin/sh\n', 'build/deep/er/x.js': 'x\n', 'secrets/key': 'k\n' });
    fs.chmodSync(path.join(sandbox.path, '.env'), 0o600);
    fs.chmodSync(path.join(sandbox.path, 'build/bin/run'), 0o755);
    fs.mkdirSync(path.join(sandbox.path, 'build/empty'));
    fs.mkdirSync(path.join(sandbox.path, 'build/bin/empty'));
    fs.symlinkSync('app.js', path.join(sandbox.path, 'build/current'));
    fs.symlinkSync('build', path.join(sandbox.path, 'linked'));
    fs.chmodSync(path.join(sandbox.path, 'secrets/key'), 0o400);
    fs.chmodSync(path.join(sandbox.path, 'secrets'), 0o700);
    fs.chmodSync(path.join(sandbox.path, 'build/deep'), 0o750);
    fs.chmodSync(path.join(sandbox.path, 'build/bin'), 0o555);
    const before = snapshot(sandbox.path);

    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    expect(fs.existsSync(sandbox.path)).toBe(false);
    await manager.restoreTrash(done.trashId);
    expect(snapshot(sandbox.path)).toEqual(before);
    expect((await manager.changes(sandbox.id)).changes).toEqual([]);
  });
});
