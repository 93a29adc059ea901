import { describe, expect, it } from 'vitest';
import { BinderyError, CancelledError } from '../../shared/errors.ts';
import { gitRepo } from '../testing/fixtures.ts';
import { git, gitStream } from './git.ts';

describe('git runner', () => {
  it('returns stdout and accepts the exit codes it is told are not failures', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const listed = await git('ls-files', ['ls-files', '-z'], { cwd: repo });
    expect(listed.stdout.toString('utf8')).toBe('a.txt\0');
    const missing = await git('rev-parse', ['rev-parse', '--verify', '-q', 'no-such-branch'], { cwd: repo, okCodes: [0, 1] });
    expect(missing.code).toBe(1);
  });

  it('names the operation and says what git said when it fails', async () => {
    const repo = gitRepo();
    const failure = await git('cat-file -t', ['cat-file', '-t', 'no-such-object'], { cwd: repo }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BinderyError);
    expect((failure as Error).message).toMatch(/^git cat-file -t failed in .*: fatal: Not a valid object name/);
  });

  it('starts nothing when already cancelled', async () => {
    const repo = gitRepo();
    const controller = new AbortController();
    controller.abort();
    await expect(git('update-ref', ['update-ref', 'refs/bindery/never', 'HEAD'], { cwd: repo, signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
    expect((await git('for-each-ref', ['for-each-ref', 'refs/bindery'], { cwd: repo })).stdout.length).toBe(0);
  });

  it('streams stdout to a consumer, and stops git with the consumer’s exception', async () => {
    const repo = gitRepo(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}.txt`, `${i}\n`])));
    let bytes = 0;
    await gitStream('ls-files', ['ls-files'], { cwd: repo }, (chunk) => (bytes += chunk.length));
    expect(bytes).toBeGreaterThan(300 * 6);
    const stop = new Error('enough');
    await expect(
      gitStream('ls-files', ['ls-files'], { cwd: repo }, () => {
        throw stop;
      }),
    ).rejects.toBe(stop);
  });
});
