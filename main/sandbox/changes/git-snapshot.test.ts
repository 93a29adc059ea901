import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { inspectOriginal, snapshotWorkingState, type WorkingStateSnapshot } from './git-snapshot.ts';

async function snapshot(repo: string): Promise<WorkingStateSnapshot> {
  const original = await inspectOriginal(repo);
  if ('reason' in original) throw new Error(original.reason);
  return snapshotWorkingState(repo, original, tempDir('bindery-tmp-'), 'snapshot');
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('snapshotWorkingState', () => {
  it('carries a same-size edit made in the second of the last git add (a racily clean index entry)', async () => {
    const repo = gitRepo({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
    const file = path.join(repo, 'a.txt');
    let sameSecond = false;
    for (let attempt = 0; attempt < 3 && !sameSecond; attempt++) {
      await sleep(1000 - (Date.now() % 1000) + 20);
      const start = Math.floor(Date.now() / 1000);
      writeFiles(repo, { 'a.txt': 'two\n' });
      git(repo, 'add', 'a.txt');
      fs.writeFileSync(file, 'six\n');
      sameSecond = Math.floor(Date.now() / 1000) === start;
    }
    expect(sameSecond, 'could not fit the add and the edit into one second').toBe(true);
    // The temporary index is made in a later second than the user's.
    await sleep(1100);
    const { commit } = await snapshot(repo);
    expect(git(repo, 'show', `${commit}:a.txt`)).toBe('six\n');
  });

  it('leaves no shared index in the user’s .git when the repository splits its index', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });
    git(repo, 'config', 'core.splitIndex', 'true');
    git(repo, 'update-index', '--split-index');
    writeFiles(repo, { 'a.txt': 'edited\n', 'new.txt': 'new\n' });
    const sharedIndexes = (): string[] => fs.readdirSync(path.join(repo, '.git')).filter((name) => name.startsWith('sharedindex.'));
    const before = sharedIndexes();
    const { commit, clean } = await snapshot(repo);
    expect(clean).toBe(false);
    expect(git(repo, 'show', `${commit}:new.txt`)).toBe('new\n');
    expect(sharedIndexes()).toEqual(before);
  });
});
