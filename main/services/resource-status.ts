/**
 * Live facts about registered folders for the resources table: missing location, git branch,
 * dirty count. Computed on request, a few at a time, so listing resources never waits on git.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ResourceStatus } from '../../shared/dto.ts';
import type { Resource } from '../../shared/model.ts';
import { workTreeStatus } from '../git/index.ts';
import { forEachLimit } from '../sandbox/index.ts';

const CONCURRENCY = 4;
const GIT_TIMEOUT_MS = 20_000;

/** The status of each resource, in the order given (through the engine's one pool; resourceStatus never throws). */
export async function resourceStatuses(resources: readonly Resource[]): Promise<ResourceStatus[]> {
  const out: ResourceStatus[] = new Array(resources.length);
  await forEachLimit(resources, CONCURRENCY, async (resource, index) => {
    out[index] = await resourceStatus(resource);
  });
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
    return { ...base, ...(await workTreeStatus(resource.location, { timeoutMs: GIT_TIMEOUT_MS })) };
  } catch (error) {
    return { ...base, problem: (error as Error).message.split('\n')[0]! };
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}
