/** Checks a folder before it is registered: exists, is a directory, git work-tree root or not. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../../shared/errors.ts';
import { gitText } from '../git/git.ts';

/** What Bindery knows about a folder someone wants to register. */
export interface LocationInfo {
  /** Absolute, symlinks resolved. */
  path: string;
  /** The top of the git work tree containing it, or null outside git. */
  gitRoot: string | null;
}

/** Resolves and checks a location; throws a ValidationError that says what to do. */
export async function inspectLocation(location: string): Promise<LocationInfo> {
  if (!location.trim()) throw new ValidationError('The location is empty: give the path of a directory.', { field: 'location' });
  const absolute = path.resolve(location);
  let real: string;
  try {
    real = await fs.realpath(absolute);
  } catch {
    throw new ValidationError(`Location ${absolute} does not exist: check the path, or create the directory first.`, {
      field: 'location',
      location: absolute,
    });
  }
  const stat = await fs.stat(real);
  if (!stat.isDirectory()) {
    throw new ValidationError(`Location ${real} is a file, not a directory: register the directory that holds it.`, {
      field: 'location',
      location: real,
    });
  }
  return { path: real, gitRoot: await gitTopLevel(real) };
}

/**
 * The work-tree root containing `dir`, or null when git says it is not in one. Through Bindery's
 * git runner, whose environment keeps an inherited GIT_DIR or GIT_WORK_TREE from answering for
 * another repository (simple-git refuses a whole environment that holds EDITOR or PAGER).
 */
export async function gitTopLevel(dir: string): Promise<string | null> {
  try {
    const top = await gitText('rev-parse', ['rev-parse', '--show-toplevel'], { cwd: dir });
    return top ? await fs.realpath(top) : null;
  } catch {
    return null;
  }
}

/** Refuses a `git-checkout` location that is not the root of a git work tree. */
export function assertGitRoot(info: LocationInfo): void {
  if (info.gitRoot === info.path) return;
  const where = info.gitRoot
    ? `is inside the git work tree ${info.gitRoot} but is not its root: register ${info.gitRoot} instead`
    : 'is not a git work tree';
  throw new ValidationError(`Location ${info.path} ${where}, or use type fs-directory for a plain directory.`, {
    field: 'location',
    location: info.path,
    gitRoot: info.gitRoot,
  });
}
