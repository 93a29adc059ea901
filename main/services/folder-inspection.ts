/**
 * What the register dialog shows before anything is saved: does the folder exist, is it a git
 * work-tree root, and which type and free `namespace/name` to propose.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../../shared/errors.ts';
import type { FolderInspection } from '../../shared/dto.ts';
import { checkResourceName } from '../core/names.ts';
import { gitTopLevel } from './location.ts';

/** The namespace proposed for folders registered from the app. */
export const DEFAULT_NAMESPACE = 'local';

/** Inspects a folder; never throws for a missing one (that is an answer, not an error). */
export async function inspectFolder(folder: string, takenNames: ReadonlySet<string>): Promise<FolderInspection> {
  if (!path.isAbsolute(folder)) {
    throw new ValidationError(`"${folder}" is not an absolute path: pick the folder again, or type its full path.`, { field: 'path' });
  }
  const absolute = path.resolve(folder);
  const suggestedName = freeName(suggestName(absolute), takenNames);
  let real: string;
  try {
    real = await fs.realpath(absolute);
  } catch {
    return { path: absolute, exists: false, isDirectory: false, gitRoot: null, suggestedType: 'fs-directory', suggestedName };
  }
  const isDirectory = (await fs.stat(real)).isDirectory();
  const gitRoot = isDirectory ? await gitTopLevel(real) : null;
  return {
    path: real,
    exists: true,
    isDirectory,
    gitRoot,
    suggestedType: gitRoot === real ? 'git-checkout' : 'fs-directory',
    suggestedName: freeName(suggestName(real), takenNames),
  };
}

/** `local/<folder name>` with characters a resource name cannot hold replaced by "-". */
export function suggestName(folder: string): string {
  const base = path.basename(folder).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').replace(/-+$/, '');
  return `${DEFAULT_NAMESPACE}/${base || 'folder'}`;
}

/** `name`, or `name-2`, `name-3`, ... : the first one not taken and valid. */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  const valid = checkResourceName(name) === null ? name : `${DEFAULT_NAMESPACE}/folder`;
  if (!taken.has(valid)) return valid;
  for (let n = 2; ; n++) {
    const candidate = `${valid}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
