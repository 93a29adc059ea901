/** A work tree's branch and number of changed paths, for the resources table. */
import { simpleRun } from './simple-runner.ts';

/** The branch checked out (null when git names none) and how many paths differ from HEAD or are untracked. */
export interface WorkTreeStatus {
  gitBranch: string | null;
  dirtyCount: number;
}

/** Reads `cwd`'s status without refreshing its index; throws a BinderyError that names git's complaint. */
export async function workTreeStatus(cwd: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<WorkTreeStatus> {
  const args = ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal'];
  const { stdout } = await simpleRun('status', args, { cwd, ...options });
  return parsePorcelainV2(stdout);
}

/** Branch and number of changed or untracked paths from `git status --porcelain=v2 --branch -z`. */
export function parsePorcelainV2(output: string): WorkTreeStatus {
  const entries = output.split('\0');
  let gitBranch: string | null = null;
  let dirtyCount = 0;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.startsWith('# branch.head ')) gitBranch = entry.slice('# branch.head '.length);
    else if (entry.startsWith('1 ') || entry.startsWith('u ') || entry.startsWith('? ')) dirtyCount++;
    else if (entry.startsWith('2 ')) {
      dirtyCount++;
      index++; // a rename or copy is followed by its original path
    }
  }
  return { gitBranch, dirtyCount };
}
