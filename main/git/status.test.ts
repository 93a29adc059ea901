import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, writeFiles } from '../testing/fixtures.ts';
import { parsePorcelainV2, workTreeStatus } from './index.ts';

describe('parsePorcelainV2', () => {
  it('counts changed, renamed, unmerged and untracked entries once each', () => {
    const output = [
      '# branch.oid 0123',
      '# branch.head main',
      '1 .M N... 100644 100644 100644 a a a.txt',
      '2 R. N... 100644 100644 100644 a a R100 new name.txt',
      'old name.txt',
      'u UU N... 100644 100644 100644 100644 a a a c.txt',
      '? untracked.txt',
      '',
    ].join('\0');
    expect(parsePorcelainV2(output)).toEqual({ gitBranch: 'main', dirtyCount: 4 });
  });

  it('reads a detached head and a clean tree', () => {
    expect(parsePorcelainV2('# branch.oid 0123\0# branch.head (detached)\0')).toEqual({ gitBranch: '(detached)', dirtyCount: 0 });
  });
});

describe('workTreeStatus', () => {
  it('reads branch and dirty count from a real repository, index untouched', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    writeFiles(repo, { 'a.txt': 'changed\n', 'new.txt': 'n\n' });
    git(repo, 'checkout', '-q', '-b', 'feature');
    // Backdated, so a refresh (which a plain `git status` would write here) shows as a new mtime.
    const index = path.join(repo, '.git/index');
    fs.utimesSync(index, new Date(2020, 0, 1), new Date(2020, 0, 1));
    const before = fs.statSync(index).mtimeMs;
    expect(await workTreeStatus(repo)).toEqual({ gitBranch: 'feature', dirtyCount: 2 });
    expect(fs.statSync(index).mtimeMs).toBe(before);
  });

  it('says what git said when the folder is not a repository any more', async () => {
    const repo = gitRepo();
    writeFiles(repo, { '.git/HEAD': 'garbage\n' });
    await expect(workTreeStatus(repo)).rejects.toThrow(/^git status failed in .*: fatal: not a git repository/);
  });
});
