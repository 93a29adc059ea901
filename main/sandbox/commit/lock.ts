/**
 * The locks a commit or undo holds from its first check to its last record: one per original
 * folder and one per sandbox it touches, shared by every process on the data directory (see
 * journal/process-lock.ts), so two processes never commit, undo or recover the same folder at once.
 */
import type { EngineContext } from '../context.ts';
import { folderKey, locksDirOf, withLocks, type LockKey } from './journal/index.ts';
import type { SandboxInfo } from '../../../shared/dto.ts';

/** Runs `work` holding the locks of the originals and folders of `sandboxes`; `doing` says what for ("committing to"); `signal` stops the wait. */
export async function withSandboxLocks<T>(context: EngineContext, sandboxes: readonly SandboxInfo[], doing: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const keys: LockKey[] = [];
  for (const sandbox of sandboxes) {
    keys.push({ key: await folderKey(sandbox.originalPath), label: `${doing} ${sandbox.originalPath}` });
    if (sandbox.strategy !== 'none') keys.push({ key: await folderKey(sandbox.path), label: `${doing} ${sandbox.originalPath} from the sandbox ${sandbox.path}` });
  }
  return withLocks(locksDirOf(context.layout.journalDir), keys, work, undefined, signal);
}
