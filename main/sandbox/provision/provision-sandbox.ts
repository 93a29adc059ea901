/**
 * The manager's provisioning steps: a new sandbox (checked original, claimed folder, its row,
 * provision, ready or cleaned up) and sharing an existing one with another slot (wider access).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ulid } from 'ulid';
import { ConflictError, ValidationError } from '../../../shared/errors.ts';
import type { AccessMode, SandboxStrategy } from '../../../shared/model.ts';
import type { SandboxInfo } from '../../../shared/dto.ts';
import { logEvent, type EngineContext } from '../context.ts';
import { manifestFile, readManifest, writeBaseline } from '../changes/index.ts';
import { makeWritable, restoreModes, widestAccess } from './access.ts';
import type { ProvisionProgress } from './copy-tree.ts';
import { isStrictlyInside, metaDir, sandboxPathFor, writeMarker } from './layout.ts';
import { provision, removeSandboxFiles } from './provision.ts';

/** What a handler asks for; the reference's `get_or_create_sandbox` arguments plus Bindery's extras. */
export interface SandboxRequest {
  planId: string;
  resourceId: string;
  originalPath: string;
  sandboxStrategy: SandboxStrategy;
  /** Defaults to read_write (the normal case). */
  access?: AccessMode;
  slotName?: string;
  resourceName?: string;
  handler?: string | null;
  handlerFailure?: string | null;
  signal?: AbortSignal;
  onProgress?: (progress: ProvisionProgress) => void;
}

/**
 * Provisions the sandbox of a request; `previous` is a failed or discarded sandbox of the same
 * (plan, resource), whose row (and with it its commits and trash entries) is reused.
 */
export async function createSandbox(context: EngineContext, request: SandboxRequest, previous: SandboxInfo | undefined): Promise<SandboxInfo> {
  const { store } = context;
  const originalPath = checkOriginal(request.originalPath);
  if (request.sandboxStrategy !== 'none') refuseNesting(originalPath, context.layout.root);
  const resourceName = request.resourceName ?? store.resourceName(request.resourceId) ?? request.resourceId;
  const access = request.access ?? 'read_write';
  const id = previous?.id ?? ulid();
  const sandboxPath = request.sandboxStrategy === 'none' ? originalPath : sandboxPathFor(context.layout.root, request.planId, resourceName, request.resourceId);
  const stamp = context.now();
  const record: SandboxInfo = {
    id,
    planId: request.planId,
    resourceId: request.resourceId,
    resourceName,
    slotNames: request.slotName ? [request.slotName] : [],
    originalPath,
    requestedStrategy: request.sandboxStrategy,
    strategy: request.sandboxStrategy,
    copyMethod: null,
    fallbackReason: null,
    handler: request.handler ?? null,
    handlerFailure: request.handlerFailure ?? null,
    access,
    path: sandboxPath,
    baseRef: null,
    baseCommit: null,
    ignoredFiles: [],
    ignoredCount: 0,
    status: 'provisioning',
    error: null,
    createdAt: previous?.createdAt ?? stamp,
    updatedAt: stamp,
  };
  if (request.sandboxStrategy !== 'none') claimFolder(record);
  // The row of a copy is flushed beside the copy rather than before it: what it records stays in
  // the kernel's writeback for seconds, far longer than its flush, and lies in the sandboxes folder
  // alone. A worktree's is on disk before git writes into the user's repository (the worktree entry
  // and the private ref), which recovery removes only through this row.
  store.transaction(() => store.saveSandbox(record), request.sandboxStrategy === 'git_worktree' ? 'flushed' : 'with-files');
  const emitProgress = (progress: ProvisionProgress): void => {
    request.onProgress?.(progress);
    context.emit({ type: 'progress', planId: record.planId, resourceId: record.resourceId, sandboxId: id, ...progress });
  };
  try {
    const outcome = await provision({
      sandboxId: id,
      planId: request.planId,
      originalPath,
      sandboxPath,
      strategy: request.sandboxStrategy,
      access,
      tempDir: context.layout.tempDir,
      signal: request.signal,
      onProgress: emitProgress,
    });
    const ready: SandboxInfo = { ...record, ...outcome, status: 'ready', updatedAt: context.now() };
    const how = ready.fallbackReason ? `${ready.strategy} (${ready.fallbackReason})` : ready.strategy;
    // One transaction: the row and its activity line land together, flushed beside what follows
    // (the files it records are not on disk yet either).
    store.transaction(() => {
      store.saveSandbox(ready);
      logEvent(context, 'sandbox.created', ready.planId, id, `Sandbox of ${resourceName} provisioned with ${how} at ${sandboxPath}.`);
    }, 'with-files');
    context.emit({ type: 'status', planId: ready.planId, sandboxId: id, status: 'ready' });
    return ready;
  } catch (error) {
    if (request.sandboxStrategy !== 'none') await removeSandboxFiles(sandboxPath);
    // A discarded sandbox stays discarded (as it was recorded), so its trash entries can still be restored.
    if (previous?.status === 'discarded') store.saveSandbox({ ...previous, error: (error as Error).message, updatedAt: context.now() });
    else if (previous) store.saveSandbox({ ...record, status: 'failed', error: (error as Error).message, updatedAt: context.now() });
    else store.deleteSandbox(id);
    throw error;
  }
}

/** A live sandbox shared with another request: widened to the union of the accesses, with the slot added. */
export async function shareSandbox(context: EngineContext, existing: SandboxInfo, request: SandboxRequest): Promise<SandboxInfo> {
  const access = widestAccess(existing.access, request.access ?? 'read_write');
  const slotNames = request.slotName && !existing.slotNames.includes(request.slotName) ? [...existing.slotNames, request.slotName] : existing.slotNames;
  if (access === existing.access && slotNames === existing.slotNames) return existing;
  if (access !== existing.access && existing.strategy !== 'none') {
    if (existing.access === 'write_only') {
      throw new ConflictError(
        `The sandbox of ${existing.resourceName} in plan ${existing.planId} was made write_only (empty) and cannot be widened to ${access}. Bind the slots with matching access, or discard it and provision again.`,
      );
    }
    if (existing.access === 'read_only') await widenReadOnly(existing);
  }
  const next: SandboxInfo = { ...existing, access, slotNames, updatedAt: context.now() };
  context.store.saveSandbox(next);
  return next;
}

/**
 * Creates the metadata folder with its marker; refuses a folder that is already there. Local
 * metadata calls are synchronous: microseconds each, where a thread-pool round trip costs more.
 */
function claimFolder(record: SandboxInfo): void {
  if (fs.lstatSync(record.path, { throwIfNoEntry: false })) {
    throw new ConflictError(
      `The sandbox folder ${record.path} already exists but is not a live sandbox of this plan. Inspect it (it is listed as an orphan) and remove it, then try again.`,
      { path: record.path },
    );
  }
  fs.mkdirSync(path.dirname(record.path), { recursive: true });
  fs.rmSync(metaDir(record.path), { recursive: true, force: true });
  fs.mkdirSync(metaDir(record.path));
  writeMarker(record);
}

/** Makes a read_only sandbox writable again: a copy gets its original modes back (so no mode change shows), a worktree gets write bits. */
async function widenReadOnly(record: SandboxInfo): Promise<void> {
  if (record.strategy !== 'copy_on_write') return makeWritable(record.path);
  const manifest = readManifest(manifestFile(metaDir(record.path)));
  const modes = new Map<string, number>();
  for (const [rel, entry] of manifest) if (entry.type === 'file') modes.set(rel, entry.mode);
  await restoreModes(record.path, modes);
  // Bindery's own chmods are not changes: move the ctime baseline past them.
  writeBaseline(metaDir(record.path));
}

function checkOriginal(location: string): string {
  const absolute = path.resolve(location);
  const real = realpathOrNull(absolute);
  const stat = real ? fs.statSync(real, { throwIfNoEntry: false }) : undefined;
  if (!real || !stat?.isDirectory()) {
    throw new ValidationError(`The resource folder ${absolute} does not exist or is not a directory: change the resource's folder.`, {
      location: absolute,
      hints: [{ action: 'update-resource' }],
    });
  }
  return real;
}

/** Refuses an original that holds the sandboxes folder: its sandbox would hold a copy of itself. */
function refuseNesting(originalPath: string, sandboxesRoot: string): void {
  const root = realLocation(sandboxesRoot);
  if (root !== originalPath && !isStrictlyInside(originalPath, root)) return;
  throw new ValidationError(
    `The resource folder ${originalPath} contains Bindery's sandboxes folder ${root}, so its sandbox would contain itself. ` +
      'Use the strategy "none" for it, bind a narrower folder, or move Bindery\'s data directory out of it.',
    { location: originalPath, sandboxesRoot: root, hints: [{ action: 'move-data-dir' }] },
  );
}

/** The real path of a location that may not exist yet: its nearest existing ancestor resolved, the rest kept. */
function realLocation(location: string): string {
  const real = realpathOrNull(location);
  if (real !== null) return real;
  const parent = path.dirname(location);
  return parent === location ? location : path.join(realLocation(parent), path.basename(location));
}

function realpathOrNull(location: string): string | null {
  try {
    return fs.realpathSync.native(location);
  } catch {
    return null;
  }
}
