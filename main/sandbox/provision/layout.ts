/**
 * Where sandboxes live and how Bindery proves a directory is its own before deleting it: under
 * the sandboxes root, two levels deep (`<plan>/<name>`), registered, and carrying a marker that
 * names the sandbox. Metadata (marker, manifest) sits beside the sandbox, never inside it.
 */
import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import path from 'node:path';
import { UnsafePathError } from '../../../shared/errors.ts';
import type { SandboxInfo } from '../../../shared/dto.ts';

/** The folders of one data directory that the sandbox engine uses. */
export interface SandboxLayout {
  root: string;
  journalDir: string;
  trashDir: string;
  tempDir: string;
}

/** Suffix of the metadata folder beside each sandbox. */
export const META_SUFFIX = '.bindery';

/** What the marker file says. */
export interface SandboxMarker {
  sandboxId: string;
  planId: string;
  resourceId: string;
  /** The process that provisioned it (recovery tells a crashed provision from a running one). */
  pid: number;
}

/** The layout under a data directory; `sandboxesRoot` overrides the default root. */
export function layoutFor(dataDir: string, sandboxesRoot?: string): SandboxLayout {
  return {
    root: path.resolve(sandboxesRoot ?? path.join(dataDir, 'sandboxes')),
    journalDir: path.join(dataDir, 'journal'),
    trashDir: path.join(dataDir, 'trash'),
    tempDir: path.join(dataDir, 'tmp'),
  };
}

/** `<root>/<planId>/<short name>-<id suffix>`: readable, unique per (plan, resource). */
export function sandboxPathFor(root: string, planId: string, resourceName: string, resourceId: string): string {
  const short = (resourceName.split('/').pop() || 'resource').replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return path.join(root, planId, `${short}-${resourceId.slice(-6).toLowerCase()}`);
}

/** The metadata folder of a sandbox directory. */
export function metaDir(sandboxPath: string): string {
  return `${sandboxPath}${META_SUFFIX}`;
}

/** The marker that proves Bindery made a sandbox directory. */
export function markerFile(sandboxPath: string): string {
  return path.join(metaDir(sandboxPath), 'marker.json');
}

/** Writes the marker of a sandbox (its metadata folder must exist). */
export function writeMarker(record: Pick<SandboxInfo, 'id' | 'planId' | 'resourceId' | 'path'>): void {
  const marker: SandboxMarker = { sandboxId: record.id, planId: record.planId, resourceId: record.resourceId, pid: process.pid };
  fsSync.writeFileSync(markerFile(record.path), JSON.stringify(marker));
}

/** The marker of a sandbox directory, or null when it has none. */
export async function readMarker(sandboxPath: string): Promise<SandboxMarker | null> {
  try {
    return JSON.parse(await fs.readFile(markerFile(sandboxPath), 'utf8')) as SandboxMarker;
  } catch {
    return null;
  }
}

/** True when `candidate` is strictly below `root` (both absolute). Pure, so it is tested exhaustively. */
export function isStrictlyInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** True when `candidate` is exactly `<root>/<plan>/<name>`: the only depth where sandboxes live. */
export function isSandboxDepth(root: string, candidate: string): boolean {
  return isStrictlyInside(root, candidate) && path.relative(root, candidate).split(path.sep).length === 2;
}

/**
 * Throws unless `record.path` is a directory Bindery may delete: at sandbox depth under the real
 * root (no symlink on the way), and marked with this sandbox's id.
 */
export async function assertDeletable(root: string, record: Pick<SandboxInfo, 'id' | 'path'>): Promise<void> {
  const realRoot = await fs.realpath(root);
  let realPath: string;
  try {
    realPath = await fs.realpath(record.path);
  } catch {
    throw new UnsafePathError(`Sandbox ${record.path} does not exist any more; nothing was deleted.`, { path: record.path });
  }
  if (realPath !== path.join(realRoot, path.relative(root, record.path)) || !isSandboxDepth(realRoot, realPath)) {
    throw new UnsafePathError(
      `Refusing to delete ${record.path}: it is not a sandbox folder directly under ${root}. Delete it yourself if it is no longer needed.`,
      { path: record.path, root },
    );
  }
  const marker = await readMarker(record.path);
  if (marker?.sandboxId !== record.id) {
    throw new UnsafePathError(
      `Refusing to delete ${record.path}: its marker ${markerFile(record.path)} is missing or names another sandbox. Inspect it and delete it yourself if it is no longer needed.`,
      { path: record.path },
    );
  }
}
