import { describe, expect, it } from 'vitest';
import { git, gitRepo, writeFiles } from '../testing/fixtures.ts';
import { resourceStatus } from './resource-status.ts';

describe('resourceStatus', () => {
  it('counts a staged rename once, against a real repository', async () => {
    const repo = gitRepo({ 'a.txt': 'content\n' });
    git(repo, 'mv', 'a.txt', 'b.txt');
    writeFiles(repo, { 'odd name\nwith newline.txt': 'x' });
    expect(await resourceStatus({ id: 'r', location: repo })).toMatchObject({ gitBranch: 'main', dirtyCount: 2, locationMissing: false });
  });
});
