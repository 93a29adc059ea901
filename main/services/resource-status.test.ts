import { describe, expect, it } from 'vitest';
import { git, gitRepo, writeFiles } from '../testing/fixtures.ts';
import { parsePorcelainV2, resourceStatus } from './resource-status.ts';

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

describe('resourceStatus', () => {
  it('counts a staged rename once, against a real repository', async () => {
    const repo = gitRepo({ 'a.txt': 'content\n' });
    git(repo, 'mv', 'a.txt', 'b.txt');
    writeFiles(repo, { 'odd name\nwith newline.txt': 'x' });
    expect(await resourceStatus({ id: 'r', location: repo })).toMatchObject({ gitBranch: 'main', dirtyCount: 2, locationMissing: false });
  });
});
