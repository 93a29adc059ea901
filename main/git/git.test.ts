import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BinderyError, CancelledError } from '../../shared/errors.ts';
import { git as runGit, gitRepo, tempDir } from '../testing/fixtures.ts';
import { git, gitEnvironment, gitStream, gitText, gitVersion, workTreeRoot } from './index.ts';

/** Sets environment variables for the length of `run`, then puts back what was there. */
async function withEnv<T>(values: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  try {
    return await run();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** A folder holding a `git` that only sleeps (exec'd, so stopping it leaves nothing behind). */
function sleepingGit(): string {
  const dir = tempDir('bindery-fake-git-');
  fs.writeFileSync(path.join(dir, 'git'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
  return dir;
}

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

  it('answers text queries through simple-git with the user’s EDITOR, PAGER and GIT_CONFIG_GLOBAL set', async () => {
    // simple-git refuses these variables unless allowed; a user's shell usually has some of them.
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const head = (await git('rev-parse', ['rev-parse', 'HEAD'], { cwd: repo })).stdout.toString('utf8').trim();
    const variables = { EDITOR: 'vi', PAGER: 'less', GIT_PAGER: 'less', GIT_CONFIG_GLOBAL: '/dev/null', GIT_SSH_COMMAND: 'ssh', GIT_ASKPASS: 'true' };
    expect(await withEnv(variables, () => gitText('rev-parse', ['rev-parse', 'HEAD'], { cwd: repo }))).toBe(head);
    expect((await withEnv(variables, () => gitVersion())).installed).toBe(true);
  });

  it('keeps simple-git’s refusal of command-line settings that run programs (an alias here)', async () => {
    const repo = gitRepo();
    await expect(gitText('alias', ['-c', 'alias.hello=!echo hi', 'hello'], { cwd: repo })).rejects.toThrow(/^git alias failed in .*alias.*not permitted/);
  });

  it('judges a text query by its exit code, not by whether git wrote to stderr', async () => {
    const repo = gitRepo();
    const args = ['rev-parse', '--verify', '-q', 'no-such-branch'];
    // Exit code 1 and nothing on stderr: simple-git alone would call that a success.
    await expect(gitText('rev-parse', args, { cwd: repo })).rejects.toThrow(/^git rev-parse failed in .*: exit code 1$/);
    expect(await gitText('rev-parse', args, { cwd: repo, okCodes: [0, 1] })).toBe('');
  });

  it('keeps the spaces that end a path in a text answer (only the line break goes)', async () => {
    const dir = path.join(tempDir(), 'my project ');
    fs.mkdirSync(dir);
    runGit(dir, 'init', '-q');
    expect(await workTreeRoot(dir)).toBe(fs.realpathSync(dir));
    expect(await gitText('rev-parse', ['rev-parse', '--show-toplevel'], { cwd: dir })).toBe(fs.realpathSync(dir));
  });

  it('says the folder is missing, not that git is, from either runner', async () => {
    const gone = path.join(tempDir(), 'gone');
    const message = /^git status failed in .*gone: the folder does not exist; check that it was not moved or deleted\.$/;
    await expect(git('status', ['status'], { cwd: gone })).rejects.toThrow(message);
    await expect(gitText('status', ['status'], { cwd: gone })).rejects.toThrow(message);
  });

  it('says how to install git when there is none on PATH, from either runner', async () => {
    const repo = gitRepo();
    const empty = tempDir('bindery-no-git-');
    const message = /^git rev-parse could not start in .*: git was not found; install git 2\.25 or newer/;
    await withEnv({ PATH: empty }, async () => {
      await expect(git('rev-parse', ['rev-parse', 'HEAD'], { cwd: repo })).rejects.toThrow(message);
      await expect(gitText('rev-parse', ['rev-parse', 'HEAD'], { cwd: repo })).rejects.toThrow(message);
      expect((await gitVersion()).installed).toBe(false);
    });
  });

  it('stops a git that gives no answer within its timeout, from either runner', async () => {
    const repo = gitRepo();
    const fake = sleepingGit();
    const message = /^git status in .* gave no answer within 0\.3 s and was stopped; check that the folder is reachable/;
    await withEnv({ PATH: `${fake}${path.delimiter}${process.env.PATH}` }, async () => {
      await expect(git('status', ['status'], { cwd: repo, timeoutMs: 300 })).rejects.toThrow(message);
      await expect(gitText('status', ['status'], { cwd: repo, timeoutMs: 300 })).rejects.toThrow(message);
    });
  });

  it('answers within its timeout even when git does not die of the kill (stuck on a network drive)', async () => {
    const repo = gitRepo();
    const dir = tempDir('bindery-stuck-git-');
    // Signals ignored, as a process blocked in uninterruptible I/O effectively does.
    fs.writeFileSync(path.join(dir, 'git'), "#!/bin/sh\ntrap '' INT TERM\nsleep 4\n", { mode: 0o755 });
    await withEnv({ PATH: `${dir}${path.delimiter}${process.env.PATH}` }, async () => {
      for (const run of [git, gitText]) {
        const started = Date.now();
        await expect(run('status', ['status'], { cwd: repo, timeoutMs: 300 })).rejects.toThrow(/^git status in .* gave no answer within 0\.3 s/);
        expect(Date.now() - started).toBeLessThan(2500);
      }
    });
  });

  it('stops a running git when cancelled, from either runner', async () => {
    const repo = gitRepo();
    const fake = sleepingGit();
    await withEnv({ PATH: `${fake}${path.delimiter}${process.env.PATH}` }, async () => {
      for (const run of [git, gitText]) {
        const controller = new AbortController();
        const running = run('status', ['status'], { cwd: repo, signal: controller.signal });
        setTimeout(() => controller.abort(), 200);
        const started = Date.now();
        await expect(running).rejects.toThrow(CancelledError);
        expect(Date.now() - started).toBeLessThan(10_000);
      }
    });
  });
});
