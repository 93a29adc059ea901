/** Test data: a change-list entry, a modified text file unless `extra` says otherwise. */
import type { ChangedFile } from '../dto.ts';

/** A ChangedFile for `path`: modified, one line added, clean, with `extra` laid over it. */
export function changedFile(path: string, extra: Partial<ChangedFile> = {}): ChangedFile {
  return {
    path,
    oldPath: null,
    kind: 'modified',
    oldType: 'file',
    newType: 'file',
    oldMode: 0o100644,
    newMode: 0o100644,
    size: 1,
    binary: false,
    additions: 1,
    deletions: 0,
    drift: 'clean',
    driftReason: null,
    ...extra,
  };
}
