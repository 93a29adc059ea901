/**
 * Run checkpoints (issue 23): what a sandbox held when a tool run started and ended, so a review
 * can show one run's changes alone. A worktree gets a private commit (git-checkpoint.ts), a copy a
 * manifest with the content that can matter (copy-checkpoint.ts); `none` sandboxes get none.
 */
import type { SandboxInfo } from '../../../shared/dto.ts';
import { checkpointRefPrefix, commitCheckpoint, commitEntry, commitsDiffer } from './git-checkpoint.ts';
import { copyCheckpointDir, manifestEntry, manifestsDiffer, writeCopyCheckpoint } from './copy-checkpoint.ts';
import path from 'node:path';

/** Where a checkpoint is: a commit id (held by a private ref) or a manifest's file name. */
export interface CheckpointRecord {
  kind: 'commit' | 'manifest';
  ref: string;
}

/** One side of a file at a checkpoint; `data` null when its content is not kept (over the limit, or the base's). */
export interface CheckpointSide {
  /** The content's id where known (a blob id, or a kept file's sha256): equal ids, equal content. */
  id?: string;
  data: Buffer | null;
  size: number;
  mode: number;
}

/** What recording one checkpoint needs. */
export interface CheckpointRequest {
  runId: string;
  moment: 'start' | 'end';
  tempDir: string;
  /** Paths changed against the base now: a copy keeps their content (the rest is the base's). */
  changedPaths: readonly string[];
  /** The run's start checkpoint, when recording its end: a copy keeps what moved since. */
  since?: CheckpointRecord;
}

/** Records a checkpoint of the sandbox as it is now; null for a sandbox that has none (`none`). */
export async function recordCheckpoint(sandbox: SandboxInfo, request: CheckpointRequest): Promise<CheckpointRecord | null> {
  if (sandbox.strategy === 'git_worktree') {
    const ref = `${checkpointRefPrefix(sandbox.id)}${request.runId}-${request.moment}`;
    const commit = await commitCheckpoint(sandbox, ref, request.tempDir, `bindery: checkpoint at the ${request.moment} of run ${request.runId}`);
    return { kind: 'commit', ref: commit };
  }
  if (sandbox.strategy !== 'copy_on_write') return null;
  const dir = copyCheckpointDir(request.tempDir, sandbox.id);
  const since = request.since?.kind === 'manifest' ? path.join(dir, request.since.ref) : undefined;
  const file = await writeCopyCheckpoint(sandbox.path, dir, `${request.runId}-${request.moment}`, new Set(request.changedPaths), since);
  return { kind: 'manifest', ref: path.basename(file) };
}

/** The paths whose content, type or mode differ between two checkpoints of one sandbox, sorted. */
export async function checkpointsDiffer(sandbox: SandboxInfo, from: CheckpointRecord, to: CheckpointRecord, tempDir: string): Promise<string[]> {
  if (from.kind === 'commit' && to.kind === 'commit') return (await commitsDiffer(sandbox, from.ref, to.ref)).sort();
  const dir = copyCheckpointDir(tempDir, sandbox.id);
  return manifestsDiffer(path.join(dir, from.ref), path.join(dir, to.ref));
}

/** One path at a checkpoint (null when absent there); content over `limit` is left out (a commit's). */
export async function checkpointSide(sandbox: SandboxInfo, record: CheckpointRecord, rel: string, tempDir: string, limit: number): Promise<CheckpointSide | null> {
  if (record.kind === 'commit') return commitEntry(sandbox, record.ref, rel, limit);
  const dir = copyCheckpointDir(tempDir, sandbox.id);
  const side = await manifestEntry(dir, path.join(dir, record.ref), rel);
  return side && side.data !== null && side.data.length > limit ? { ...side, data: null } : side;
}
