import { describe, expect, it } from 'vitest';
import { BinderyError, CancelledError } from '../../shared/errors.ts';
import { gitRepo } from '../testing/fixtures.ts';
import { git, gitEnvironment, gitStream, gitText } from './git.ts';

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

  it('runs git on the folder it is given whatever GIT_DIR, GIT_INDEX_FILE or GIT_CONFIG_* Bindery inherited', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const other = gitRepo({ 'b.txt': 'b\n' });
    const inherited = { GIT_DIR: `${other}/.git`, GIT_INDEX_FILE: `${other}/.git/index`, GIT_WORK_TREE: other, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.bare', GIT_CONFIG_VALUE_0: 'true', GIT_NAMESPACE: 'x' };
    Object.assign(process.env, inherited);
    try {
      const env = gitEnvironment({ GIT_OPTIONAL_LOCKS: '0' });
      expect(Object.keys(env).filter((name) => name in inherited)).toEqual([]);
      expect(env).toMatchObject({ PATH: process.env.PATH, GIT_OPTIONAL_LOCKS: '0' });
      expect(await gitText('ls-files', ['ls-files'], { cwd: repo })).toBe('a.txt');
    } finally {
      for (const name of Object.keys(inherited)) delete process.env[name];
    }
  });
});
