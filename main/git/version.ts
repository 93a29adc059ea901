/** Which git is installed, for the doctor's check (simple-git's `version()` and its parser). */
import os from 'node:os';
import { BinderyError } from '../../shared/errors.ts';
import { simpleClient } from './simple-runner.ts';

/** The installed git's version; `installed` false when no git is on PATH. */
export interface GitVersion {
  installed: boolean;
  major: number;
  minor: number;
  patch: number | string;
}

/** The oldest git whose worktree commands Bindery's sandboxes rely on. */
export const MINIMUM_GIT = { major: 2, minor: 25 } as const;

/** The git on PATH; throws a BinderyError only when git exists but cannot answer. */
export async function gitVersion(): Promise<GitVersion> {
  // Any existing folder will do: `git --version` reads no repository.
  try {
    const { installed, major, minor, patch } = await (await simpleClient('--version', { cwd: os.tmpdir() })).version();
    return { installed, major, minor, patch };
  } catch (error) {
    throw new BinderyError('io_error', `git --version failed: ${(error as Error).message.trim()}; reinstall git 2.25 or newer.`);
  }
}

/** True when `version` is MINIMUM_GIT or newer. */
export function isSupportedGit(version: Pick<GitVersion, 'major' | 'minor'>): boolean {
  return version.major > MINIMUM_GIT.major || (version.major === MINIMUM_GIT.major && version.minor >= MINIMUM_GIT.minor);
}
