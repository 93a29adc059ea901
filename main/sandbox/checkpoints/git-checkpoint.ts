/**
 * A checkpoint of a worktree sandbox: a private commit of its whole working tree (tracked edits,
 * new files, deletions), made through a temporary index so the worktree's own index is untouched,
 * and held by a ref under `refs/bindery/checkpoints/` so it is on no branch and survives gc. Its
 * objects go through the same staging and ledger as a snapshot's (discard/git-objects.ts), so a
 * discard prunes them with the sandbox's other objects.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import type { SandboxInfo } from '../../../shared/dto.ts';
import { BINDERY_IDENTITY, git, gitText, isObjectId, splitNul } from '../../git/index.ts';
import { readBlobs } from '../changes/index.ts';
import { adoptObjects, dropStaging, stageObjects } from '../discard/index.ts';
import { decodeName } from '../fs/index.ts';

/** Where the checkpoints of one sandbox live among the original's refs. */
export function checkpointRefPrefix(sandboxId: string): string {
  return `refs/bindery/checkpoints/${sandboxId}/`;
}

/** A split index would leave a `sharedindex.*` file behind: the temporary index is written whole. */
const WHOLE_INDEX = ['-c', 'core.splitIndex=false'];

/** Commits the worktree's working state and points `ref` at it; returns the commit id. */
export async function commitCheckpoint(sandbox: SandboxInfo, ref: string, tempDir: string, message: string): Promise<string> {
  const cwd = sandbox.path;
  await fs.mkdir(tempDir, { recursive: true });
  const tempIndex = path.join(tempDir, `checkpoint-index-${ulid()}`);
  const staging = await stageObjects(cwd, tempDir);
  const env = { GIT_INDEX_FILE: tempIndex, ...staging.env };
  try {
    // The worktree's index (with its times) spares hashing the files its stat cache vouches for.
    const own = path.resolve(cwd, await gitText('rev-parse --git-path index', ['rev-parse', '--git-path', 'index'], { cwd }));
    const times = await fs.stat(own).catch(() => null);
    if (times && (await fs.copyFile(own, tempIndex).then(() => true, () => false))) await fs.utimes(tempIndex, times.atime, times.mtime);
    await git('add (checkpoint index)', [...WHOLE_INDEX, 'add', '-A', '--', '.'], { cwd, env });
    const tree = await gitText('write-tree (checkpoint)', [...WHOLE_INDEX, 'write-tree'], { cwd, env });
    const parents = isObjectId(sandbox.baseCommit ?? undefined) ? ['-p', sandbox.baseCommit!] : [];
    const commit = await gitText('commit-tree (checkpoint)', ['commit-tree', tree, ...parents, '-m', message], { cwd, env: { ...BINDERY_IDENTITY, ...staging.env } });
    await adoptObjects(staging, tempDir, commit);
    await git('update-ref (checkpoint)', ['update-ref', ref, commit], { cwd });
    return commit;
  } finally {
    await dropStaging(staging);
    await fs.rm(tempIndex, { force: true });
    await fs.rm(`${tempIndex}.lock`, { force: true });
  }
}

/** The paths whose content, type or mode differ between two checkpoint commits. */
export async function commitsDiffer(sandbox: SandboxInfo, from: string, to: string): Promise<string[]> {
  const out = await git('diff-tree (checkpoints)', ['diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to], { cwd: sandbox.path });
  return splitNul(out.stdout).map(decodeName);
}

/** One path of a checkpoint commit: its blob's content (null over `limit`), size and mode; null when absent. */
export async function commitEntry(sandbox: SandboxInfo, commit: string, rel: string, limit: number): Promise<{ id: string; data: Buffer | null; size: number; mode: number } | null> {
  const listed = await git('ls-tree (checkpoint)', ['--literal-pathspecs', 'ls-tree', '-z', '-l', '--full-tree', commit, '--', rel], { cwd: sandbox.path });
  const record = splitNul(listed.stdout)[0];
  if (!record) return null;
  // `<mode> <type> <id> <size>\t<path>`
  const [mode, type, id, size] = record.subarray(0, record.indexOf(0x09)).toString('latin1').trim().split(/\s+/);
  if (type !== 'blob' || !id) return null;
  const blobs = await readBlobs(sandbox.path, [id], limit);
  return { id, data: blobs.get(id) ?? null, size: Number(size), mode: parseInt(mode!, 8) };
}

/** A sandbox's checkpoint refs in its original, with the commits they hold; none when the original is no repository now. */
export async function checkpointRefs(sandbox: SandboxInfo): Promise<Array<{ name: string; id: string }>> {
  const listed = await gitText('for-each-ref (checkpoints)', ['for-each-ref', '--format=%(objectname) %(refname)', checkpointRefPrefix(sandbox.id)], { cwd: sandbox.originalPath }).catch(() => '');
  return listed.split('\n').filter(Boolean).map((line) => ({ id: line.slice(0, line.indexOf(' ')), name: line.slice(line.indexOf(' ') + 1) }));
}

/** Points checkpoint refs at their commits again (a restore from the trash). */
export async function setCheckpointRefs(sandbox: SandboxInfo, refs: ReadonlyArray<{ name: string; id: string }>): Promise<void> {
  const mine = refs.filter((ref) => ref.name.startsWith(checkpointRefPrefix(sandbox.id)) && isObjectId(ref.id));
  if (mine.length === 0) return;
  await git('update-ref --stdin (checkpoints)', ['update-ref', '--stdin'], { cwd: sandbox.originalPath, input: mine.map((ref) => `update ${ref.name} ${ref.id}\n`).join('') });
}

/** Deletes a sandbox's checkpoint refs; the objects only they held go with Bindery's next prune of the repository. */
export async function deleteCheckpointRefs(sandbox: SandboxInfo): Promise<void> {
  const names = (await checkpointRefs(sandbox)).map((ref) => ref.name);
  if (names.length === 0) return;
  await git('update-ref --stdin (drop checkpoints)', ['update-ref', '--stdin'], { cwd: sandbox.originalPath, input: names.map((name) => `delete ${name}\n`).join('') });
}
