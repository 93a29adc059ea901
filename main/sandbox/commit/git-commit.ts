/**
 * The optional "commit on the current branch" after a sandbox was applied to a git original's
 * working tree: a temporary index (HEAD plus exactly the committed paths) makes the tree, and a
 * compare-and-swap update-ref advances the branch. Nothing is checked out, reset or stashed; the
 * user's index gets only the committed paths refreshed, as `git commit <paths>` would.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { BinderyError, ValidationError } from '../../../shared/errors.ts';
import { decodeName, encodeName } from '../fs/index.ts';
import { git, gitText, splitNul } from '../../git/index.ts';

/** The branch a commit would go on, or a ValidationError saying why there is none. */
export async function currentBranch(repo: string): Promise<string> {
  const result = await git('symbolic-ref', ['symbolic-ref', '-q', 'HEAD'], { cwd: repo, okCodes: [0, 1, 128] });
  const ref = result.stdout.toString('utf8').trim();
  if (result.code !== 0 || !ref.startsWith('refs/heads/')) {
    throw new ValidationError(`${repo} has a detached HEAD (or is not a git repository), so there is no current branch to commit on. Commit without the git commit; the files are still applied.`, {
      hints: [{ action: 'commit-without-git' }],
    });
  }
  return ref;
}

/** A commit on the branch, and the written paths it left out because git ignores them and does not track them. */
export interface BranchCommit {
  commit: string;
  ignored: string[];
}

/**
 * Commits `paths` (as now in the working tree) on `branchRef` with `message`. Paths the repository
 * ignores and does not track stay out, as `git commit <paths>` would refuse them: a copy sandbox
 * holds ignored files too (a `.env`), which must not start being tracked.
 */
export async function commitPaths(repo: string, branchRef: string, paths: string[], message: string, tempDir: string): Promise<BranchCommit> {
  const head = (await git('rev-parse HEAD', ['rev-parse', '--verify', '-q', `${branchRef}^{commit}`], { cwd: repo, okCodes: [0, 1] })).stdout
    .toString('utf8')
    .trim();
  await fs.mkdir(tempDir, { recursive: true });
  const tempIndex = path.join(tempDir, `commit-index-${ulid()}`);
  const env = { GIT_INDEX_FILE: tempIndex };
  const nulList = (names: string[]) => Buffer.concat(names.flatMap((p) => [encodeName(p), Buffer.from([0])]));
  try {
    if (head) await git('read-tree', ['read-tree', head], { cwd: repo, env });
    else await git('read-tree --empty', ['read-tree', '--empty'], { cwd: repo, env });
    // Against the index of HEAD, check-ignore names only the untracked paths the rules ignore.
    const checked = await git('check-ignore', ['check-ignore', '-z', '--stdin'], { cwd: repo, env, input: nulList(paths), okCodes: [0, 1] });
    const ignored = new Set(splitNul(checked.stdout).map(decodeName));
    const list = nulList(paths.filter((p) => !ignored.has(p)));
    await git('update-index', ['update-index', '--add', '--remove', '-z', '--stdin'], { cwd: repo, env, input: list });
    const tree = await gitText('write-tree', ['write-tree'], { cwd: repo, env });
    const commit = await gitText('commit-tree', ['commit-tree', tree, ...(head ? ['-p', head] : []), '-m', message], { cwd: repo }).catch((error: unknown) => {
      throw new BinderyError(
        'io_error',
        `git could not create the commit in ${repo} (${(error as Error).message}). Set your identity there (git config user.name / user.email), then commit the applied files yourself.`,
      );
    });
    await git('update-ref', ['update-ref', '-m', `bindery: ${message.split('\n')[0]}`, branchRef, commit, head || '0'.repeat(40)], { cwd: repo });
    // Keep `git status` truthful: the committed paths now match HEAD in the user's index too.
    await git('update-index (user index)', ['update-index', '--add', '--remove', '-z', '--stdin'], { cwd: repo, input: list, okCodes: [0, 128] });
    return { commit, ignored: [...ignored] };
  } finally {
    await fs.rm(tempIndex, { force: true });
  }
}
