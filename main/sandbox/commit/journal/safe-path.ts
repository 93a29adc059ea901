/**
 * Where a relative path of a commit may land: inside the target root, never through a symlinked
 * directory that leads outside it. The predicate is pure; the resolver looks at the disk.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError, UnsafePathError, ValidationError } from '../../../../shared/errors.ts';
import { decodeName, encodeName } from '../../fs/index.ts';
import { diskPath, nativeRealPathExact, realPathExact } from './disk-path.ts';
import { lstatOrNull } from './durable-fs.ts';

/**
 * Why `relPath` is not an acceptable relative path (absolute, `..`, empty segments, NUL, a name that
 * is not exact), or null when it is. Separators are `/` on every platform; on Windows a backslash
 * or drive is refused too.
 */
export function checkRelPath(relPath: string, platform: NodeJS.Platform = process.platform): string | null {
  if (typeof relPath !== 'string' || relPath.length === 0) return 'the path is empty';
  if (relPath.includes('\0')) return 'the path contains a NUL byte';
  if (!isCanonicalName(relPath)) {
    return 'the path holds a lone surrogate that is not an escaped non-UTF-8 byte, so it names no exact file';
  }
  if (relPath.startsWith('/')) return 'the path is absolute; give it relative to the target folder';
  if (platform === 'win32' && (relPath.includes('\\') || /^[A-Za-z]:/.test(relPath))) {
    return 'the path uses a backslash or a drive letter; use "/" separators relative to the target folder';
  }
  for (const segment of relPath.split('/')) {
    if (segment === '') return 'the path has an empty segment ("//" or a trailing "/")';
    if (segment === '.' || segment === '..') return `the path has a "${segment}" segment, which could leave the target folder`;
  }
  return null;
}

/**
 * True when the path is as change detection writes names: UTF-8 text as itself, and only bytes
 * that are not UTF-8 escaped. Anything else would reach the disk as another name (a lone
 * surrogate as U+FFFD), or name one file in two ways and slip past the one-op-per-file check.
 */
function isCanonicalName(relPath: string): boolean {
  return !/[\ud800-\udfff]/.test(relPath) || decodeName(encodeName(relPath)) === relPath;
}

/** A relative path mapped onto the disk: its real parent directory and what must be created. */
export interface ResolvedTarget {
  relPath: string;
  /** The parent directory, relative to the real target root with `/` separators ('' for the root). */
  dirRel: string;
  /** The absolute path it lands on (its parent with symlinks resolved). */
  path: string;
  /** The last segment. */
  name: string;
  /** Parent directories that do not exist yet, relative to the real root, shallowest first. */
  missingDirs: string[];
  /** Set when a parent exists but is not a directory: the path cannot be written. */
  blockedBy: string | null;
}

/** The absolute form of a path recorded relative to the real root. */
export function absoluteIn(rootReal: string, rel: string): string {
  // path.join reads `/` as a separator on every platform.
  return rel === '' ? rootReal : path.join(rootReal, rel);
}

/** True when `candidate` is `root` or below it (both absolute, symlinks resolved). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Resolved parent folders, shared by the ops of one commit so each folder is looked at once. */
export type ParentCache = Map<string, ParentResolution>;

interface ParentResolution {
  /** The folder's absolute path with symlinks resolved (or where it will be created). */
  current: string;
  /** `current` relative to the real root, as the journal records it. */
  dirRel: string;
  missingDirs: string[];
  blockedBy: string | null;
}

/**
 * Maps `relPath` onto `rootReal` (the target root with symlinks resolved), following symlinked
 * parent directories only while they stay inside the root. Throws UnsafePathError otherwise.
 */
export function resolveTarget(rootReal: string, relPath: string, cache: ParentCache = new Map()): ResolvedTarget {
  const problem = checkRelPath(relPath);
  if (problem) throw new UnsafePathError(`Refused path ${JSON.stringify(relPath)}: ${problem}.`, { relPath });
  const segments = relPath.split('/');
  const name = segments.pop()!;
  const parent = resolveDir(rootReal, segments, relPath, cache);
  return { relPath, dirRel: parent.dirRel, path: path.join(parent.current, name), name, missingDirs: parent.missingDirs, blockedBy: parent.blockedBy };
}

function resolveDir(rootReal: string, segments: string[], relPath: string, cache: ParentCache): ParentResolution {
  if (segments.length === 0) return { current: rootReal, dirRel: '', missingDirs: [], blockedBy: null };
  const key = segments.join('/');
  let resolved = cache.get(key);
  if (!resolved) {
    resolved = resolveFolder(rootReal, resolveDir(rootReal, segments.slice(0, -1), relPath, cache), segments[segments.length - 1]!, relPath);
    cache.set(key, resolved);
  }
  return resolved;
}

function resolveFolder(rootReal: string, parent: ParentResolution, name: string, relPath: string): ParentResolution {
  if (parent.blockedBy !== null) return parent;
  const candidate = path.join(parent.current, name);
  const stat = parent.missingDirs.length > 0 ? null : lstatOrNull(candidate);
  const at = (current: string, missingDirs: string[], blockedBy: string | null): ParentResolution => ({ current, dirRel: relativeTo(rootReal, current), missingDirs, blockedBy });
  if (!stat) return at(candidate, [...parent.missingDirs, relativeTo(rootReal, candidate)], null);
  if (stat.isSymbolicLink()) return at(followInside(rootReal, candidate, relPath), [], null);
  // Resolved by the OS, as folderStillReal will compare it (case and firmlinks included).
  if (stat.isDirectory()) return at(nativeRealPathExact(candidate), [], null);
  return at(candidate, [], relativeTo(rootReal, candidate));
}

function followInside(rootReal: string, link: string, relPath: string): string {
  let real: string;
  try {
    real = nativeRealPathExact(link);
  } catch {
    throw new UnsafePathError(
      `Refused path ${JSON.stringify(relPath)}: its parent ${link} is a dangling symlink. Fix or remove the link first.`,
      { relPath },
    );
  }
  if (!isInside(rootReal, real)) {
    throw new UnsafePathError(
      `Refused path ${JSON.stringify(relPath)}: its parent ${link} is a symlink to ${real}, outside ${rootReal}. ` +
        'Bindery only writes inside the target folder; replace the link with a real directory to commit there.',
      { relPath, link, resolved: real },
    );
  }
  if (!fsSync.statSync(diskPath(real)).isDirectory()) {
    throw new UnsafePathError(`Refused path ${JSON.stringify(relPath)}: its parent ${link} is a symlink to a file.`, { relPath });
  }
  return real;
}

function relativeTo(rootReal: string, absolute: string): string {
  return path.relative(rootReal, absolute).split(path.sep).join('/');
}

/**
 * True when `dir` (recorded with symlinks resolved) is still a folder that resolves to itself:
 * nobody swapped it, or one of its parents, for a symlink or a file since the commit checked it.
 * Checked again right before each rename so a swapped folder cannot redirect a write outside the target.
 */
export function folderStillReal(dir: string): boolean {
  try {
    return nativeRealPathExact(dir) === dir && fsSync.lstatSync(diskPath(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** The target root with symlinks resolved; it must be an existing directory. */
export async function realTargetRoot(targetRoot: string): Promise<string> {
  let real: string;
  try {
    real = await realPathExact(path.resolve(targetRoot));
  } catch {
    throw new NotFoundError(`Target folder ${targetRoot} does not exist: it may have been moved or deleted; restore it, then retry.`, {
      targetRoot,
    });
  }
  if (!(await fs.stat(diskPath(real))).isDirectory()) {
    throw new ValidationError(`Target ${targetRoot} is not a folder: commits apply to a folder.`, { targetRoot });
  }
  return real;
}
