/**
 * A discarded sandbox's run checkpoints (checkpoints/) leave with it, so a discard from any host
 * leaves no Bindery ref in the user's repository: with a trash entry they are kept in it (the
 * commits' objects packed, the refs and rows listed, a copy's manifests moved in), a restore puts
 * them back and a purge ends them with the entry; without one they are removed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SandboxInfo } from '../../../shared/dto.ts';
import type { StoredCheckpoint } from '../../../shared/review-dto.ts';
import { git } from '../../git/index.ts';
import { checkpointRefs, copyCheckpointDir, deleteCheckpointRefs, setCheckpointRefs } from '../checkpoints/index.ts';
import type { EngineContext } from '../context.ts';
import { unpackSnapshot, withObjectsLock } from './git-objects.ts';
import { exists, moveDir, removeTree } from './trash-files.ts';

/** What an entry keeps of its sandbox's checkpoints. */
interface KeptCheckpoints {
  refs: Array<{ name: string; id: string }>;
  rows: StoredCheckpoint[];
}

const KEPT = 'checkpoints.json';
const PACK = 'checkpoints.pack';
const COPIES = 'checkpoints';

/**
 * Writes into a trash entry what it keeps of the sandbox's checkpoints: their rows, refs and the
 * objects the commits add over the base (a snapshot base's are in the entry's own pack). Runs
 * before the entry's `files` is complete, so recovery never finishes a discard without it.
 */
export async function keepCheckpoints(context: EngineContext, sandbox: SandboxInfo, trashPath: string): Promise<void> {
  const rows = context.store.sandboxCheckpoints(sandbox.id);
  const refs = sandbox.strategy === 'git_worktree' ? await checkpointRefs(sandbox) : [];
  if (rows.length === 0 && refs.length === 0) return;
  if (refs.length > 0) {
    const input = [...refs.map((ref) => ref.id), ...(sandbox.baseCommit ? [`^${sandbox.baseCommit}`] : [])].join('\n') + '\n';
    const pack = await git('pack-objects (checkpoints)', ['pack-objects', '--revs', '--stdout', '-q'], { cwd: sandbox.originalPath, input });
    await fs.writeFile(path.join(trashPath, PACK), pack.stdout);
  }
  await fs.writeFile(path.join(trashPath, KEPT), JSON.stringify({ refs, rows } satisfies KeptCheckpoints));
}

/**
 * Takes the sandbox's checkpoints out of its original's refs and the data folder: a copy's
 * manifests into the entry at `trashPath`, or removed without one. Runs before the worktree's
 * removal, whose prune then finds no Bindery ref left and deletes the commits' objects.
 */
export async function removeCheckpoints(context: EngineContext, sandbox: SandboxInfo, trashPath: string | null): Promise<void> {
  if (sandbox.strategy === 'git_worktree') await deleteCheckpointRefs(sandbox);
  const dir = copyCheckpointDir(context.layout.tempDir, sandbox.id);
  if (!(await exists(dir))) return;
  const kept = trashPath ? path.join(trashPath, COPIES) : null;
  if (kept && !(await exists(kept))) await moveDir(dir, kept);
  else await removeTree(dir);
}

/**
 * Puts back what a trash entry kept (idempotent, for a restore run again): the objects and refs
 * into the original under its objects lock, the manifests into the data folder. Returns the rows
 * to record again.
 */
export async function restoreCheckpoints(context: EngineContext, sandbox: SandboxInfo, trashPath: string): Promise<StoredCheckpoint[]> {
  const kept = await fs.readFile(path.join(trashPath, KEPT), 'utf8').then((text) => JSON.parse(text) as KeptCheckpoints, () => null);
  if (!kept) return [];
  const pack = await fs.readFile(path.join(trashPath, PACK)).catch(() => null);
  if (pack && kept.refs.length > 0) {
    const repo = sandbox.originalPath;
    await withObjectsLock(repo, context.layout.tempDir, async () => {
      await unpackSnapshot(repo, pack, kept.refs[0]!.id, context.layout.tempDir);
      await setCheckpointRefs(sandbox, kept.refs);
    });
  }
  const copies = path.join(trashPath, COPIES);
  const dir = copyCheckpointDir(context.layout.tempDir, sandbox.id);
  if ((await exists(copies)) && !(await exists(dir))) {
    await fs.mkdir(path.dirname(dir), { recursive: true });
    await moveDir(copies, dir);
  }
  return kept.rows.filter((row) => row.sandboxId === sandbox.id);
}
