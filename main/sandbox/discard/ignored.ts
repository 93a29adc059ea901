/**
 * Ignored files a tool made in a worktree sandbox (`.env`, `build/`): git lists none of them as
 * changes, yet a discard must not drop them. A worktree sandbox starts with none: `worktree add`
 * checks out tracked files only, and provisioning copies over only changed and untracked files
 * that are not ignored (keepOriginalBytes), so every ignored file in it is the tool's. They are
 * counted for the confirmation, kept in the trash and restored; committing them stays opt-in.
 */
import fs from 'node:fs/promises';
import { decodeName, hasEscapes, inRoot } from '../fs/index.ts';
import { git, splitNul } from '../../git/index.ts';
import { copyEntry, copyInto } from './trash-files.ts';

/** The ignored files of a worktree sandbox: each one (folders as `dir/` only where git will not look inside, a repository), and how many entries a person sees (folders collapsed, as `git status` shows them). */
export interface IgnoredFiles {
  paths: string[];
  count: number;
}

const LIST = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard'];

/** Lists the ignored files of a worktree sandbox. */
export async function ignoredFiles(sandboxPath: string): Promise<IgnoredFiles> {
  const [each, collapsed] = await Promise.all([
    git('ls-files (ignored)', LIST, { cwd: sandboxPath, optionalLocks: true }),
    git('ls-files (ignored folders)', [...LIST, '--directory', '--no-empty-directory'], { cwd: sandboxPath, optionalLocks: true }),
  ]);
  return { paths: splitNul(each.stdout).map(decodeName), count: splitNul(collapsed.stdout).length };
}

/**
 * Copies the ignored files from below `fromRoot` to below `toRoot` (a folder entry whole), and the
 * modes of the folders they are in: git lists files only, so a `secrets/` kept at 0700 would
 * otherwise come back at the umask's 0755.
 */
export async function copyIgnored(fromRoot: string, toRoot: string, paths: readonly string[]): Promise<void> {
  const folders = new Set<string>();
  for (const rel of paths) {
    const parts = rel.replace(/\/$/, '').split('/');
    for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
    if (!rel.endsWith('/')) {
      await copyEntry(fromRoot, toRoot, rel);
      continue;
    }
    const dir = rel.slice(0, -1);
    // A repository inside the sandbox that git will not look into goes whole, `.git` and all.
    if (hasEscapes(dir)) throw new Error(`The ignored folder ${dir} has a name that is not UTF-8, which cannot be kept in the trash; rename it or discard with force.`);
    await fs.mkdir(inRoot(toRoot, dir), { recursive: true });
    await copyInto(inRoot(fromRoot, dir) as string, inRoot(toRoot, dir) as string);
    folders.add(dir);
  }
  // Last and deepest first, so a folder without a write bit was still writable while filled.
  for (const dir of [...folders].sort((a, b) => b.split('/').length - a.split('/').length)) {
    const stat = await fs.lstat(inRoot(fromRoot, dir));
    if (stat.isDirectory()) await fs.chmod(inRoot(toRoot, dir), stat.mode & 0o7777);
  }
}
