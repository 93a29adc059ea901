/**
 * Live facts about registered folders for the resources table: missing location, git branch,
 * dirty count. Computed on request, a few at a time, so listing resources never waits on git.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ResourceStatus } from '../../shared/dto.ts';
import type { Resource } from '../../shared/model.ts';
import { gitEnvironment } from '../git/git.ts';

const CONCURRENCY = 4;
const GIT_TIMEOUT_MS = 20_000;

/** The status of each resource, in the order given. */
export async function resourceStatuses(resources: readonly Resource[]): Promise<ResourceStatus[]> {
  const out: ResourceStatus[] = new Array(resources.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < resources.length) {
      const index = next++;
      out[index] = await resourceStatus(resources[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, resources.length) }, worker));
  return out;
}

/** One resource's status; problems are reported in the result, never thrown. */
export async function resourceStatus(resource: Pick<Resource, 'id' | 'location'>): Promise<ResourceStatus> {
  const base = { resourceId: resource.id, locationMissing: false, gitBranch: null, dirtyCount: null, problem: null };
  try {
    if (!(await fs.stat(resource.location)).isDirectory()) return { ...base, locationMissing: true, problem: 'The location is a file, not a directory.' };
  } catch {
    return { ...base, locationMissing: true, problem: `${resource.location} does not exist any more: update the location or remove the resource.` };
  }
  // Only a work-tree root has its own .git; a folder inside someone else's repository is not one.
  if (!(await exists(path.join(resource.location, '.git')))) return base;
  try {
    return { ...base, ...parsePorcelainV2(await gitStatus(resource.location)) };
  } catch (error) {
    return { ...base, problem: `git status failed: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** Branch and number of changed or untracked paths from `git status --porcelain=v2 --branch -z`. */
export function parsePorcelainV2(output: string): { gitBranch: string | null; dirtyCount: number } {
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

function gitStatus(cwd: string): Promise<string> {
  // core.fsmonitor off: a repository's config must not make a status refresh run its commands.
  const args = ['-c', 'core.fsmonitor=false', 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal'];
  // No optional locks: looking must not rewrite the user's index.
  const env = gitEnvironment({ GIT_OPTIONAL_LOCKS: '0' });
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(stderr.trim() || error.message));
      else resolve(stdout);
    });
  });
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}
