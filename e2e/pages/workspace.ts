/**
 * Real folders for the registry specs: git checkouts (with commits, branches and uncommitted
 * files) and plain directories in a temp folder, and the `bindery` CLI run against the test's
 * data directory, for seeding and for changes "made by another process".
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Bindery E2E',
  GIT_AUTHOR_EMAIL: 'e2e@bindery.invalid',
  GIT_COMMITTER_NAME: 'Bindery E2E',
  GIT_COMMITTER_EMAIL: 'e2e@bindery.invalid',
};

/** File contents by relative path (strings are written as UTF-8); null removes the file. */
export type Files = Record<string, string | Buffer | null>;

/** Writes (or, for null, removes) each of `files` under `root`, making folders as needed. */
export async function writeFiles(root: string, files: Files): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(root, file);
    if (content === null) {
      await fs.rm(target, { force: true });
      continue;
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
  }
}

/** A temp folder of real directories and repositories, removed by `dispose`. */
export class Workspace {
  private constructor(readonly root: string) {}

  /** Creates an empty workspace in the OS temp folder. */
  static async create(): Promise<Workspace> {
    return new Workspace(await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'bindery-e2e-ws-'))));
  }

  /** A plain directory with a file in it. */
  async directory(relative: string): Promise<string> {
    const dir = path.join(this.root, relative);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'README.txt'), `${relative}\n`);
    return dir;
  }

  /**
   * A git work tree with one commit on `branch` holding a README and `files`, and `dirty`
   * uncommitted files.
   */
  async gitRepo(relative: string, options: { branch?: string; dirty?: number; files?: Files } = {}): Promise<string> {
    const dir = path.join(this.root, relative);
    await fs.mkdir(dir, { recursive: true });
    const git = (...args: string[]) => run('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV } });
    await git('init', '-q', '-b', options.branch ?? 'main');
    await fs.writeFile(path.join(dir, 'README.md'), `# ${path.basename(dir)}\n`);
    await writeFiles(dir, options.files ?? {});
    await git('add', '.');
    await git('commit', '-q', '-m', 'Initial commit');
    for (let i = 0; i < (options.dirty ?? 0); i++) await fs.writeFile(path.join(dir, `work-in-progress-${i}.txt`), 'draft\n');
    return dir;
  }

  /** Writes a file and returns its path. */
  async file(relative: string, text: string): Promise<string> {
    const file = path.join(this.root, relative);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
    return file;
  }

  /** Removes the workspace. */
  async dispose(): Promise<void> {
    await fs.rm(this.root, { recursive: true, force: true });
  }
}

/** Runs `bindery --data-dir <dataDir> ...args --json` and returns its parsed output. */
export async function bindery(dataDir: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, [await cliEntry(), '--data-dir', dataDir, '--json', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...GIT_ENV },
  });
  return stdout.trim() ? (JSON.parse(stdout) as unknown) : null;
}

let entry: Promise<string> | null = null;

/**
 * The bundled CLI (out/cli, built by `npm run build` before the e2e run) when it is newer than
 * every source file, else bin/bindery.js through tsx. The bundle starts several times faster,
 * which matters for specs that seed through a few CLI calls on a busy machine.
 */
function cliEntry(): Promise<string> {
  entry ??= (async () => {
    const bundle = path.join(REPO_ROOT, 'out/cli/bindery.js');
    const built = await fs.stat(bundle).then((stat) => stat.mtimeMs, () => null);
    if (built !== null && built >= (await newestSource(['main', 'shared']))) return bundle;
    return path.join(REPO_ROOT, 'bin/bindery.js');
  })();
  return entry;
}

async function newestSource(dirs: string[]): Promise<number> {
  let newest = 0;
  for (const dir of dirs) {
    for (const name of await fs.readdir(path.join(REPO_ROOT, dir), { recursive: true })) {
      if (!name.endsWith('.ts')) continue;
      newest = Math.max(newest, (await fs.stat(path.join(REPO_ROOT, dir, name))).mtimeMs);
    }
  }
  return newest;
}
