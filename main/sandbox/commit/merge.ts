/**
 * Three-way merge of one text file with `git merge-file -p` on temporary files: base, the
 * original as it is now ("ours"), the sandbox ("theirs"). A clean merge returns the merged text;
 * overlapping edits are reported, never written with conflict markers.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { git } from '../../git/index.ts';

/** The outcome of a merge: merged bytes, or how many hunks conflict. */
export type MergeResult = { kind: 'merged'; content: Buffer } | { kind: 'conflicts'; count: number };

/** Merges `theirs` into `ours` from their common `base`, in `tempDir`. */
export async function mergeThreeWay(base: Buffer, ours: Buffer, theirs: Buffer, tempDir: string, label: string): Promise<MergeResult> {
  const dir = path.join(tempDir, `merge-${ulid()}`);
  await fs.mkdir(dir, { recursive: true });
  try {
    const files = { ours: path.join(dir, 'ours'), base: path.join(dir, 'base'), theirs: path.join(dir, 'theirs') };
    await Promise.all([fs.writeFile(files.ours, ours), fs.writeFile(files.base, base), fs.writeFile(files.theirs, theirs)]);
    const result = await git(
      'merge-file',
      ['merge-file', '-p', '-L', `original/${label}`, '-L', `base/${label}`, '-L', `sandbox/${label}`, files.ours, files.base, files.theirs],
      { cwd: dir, okCodes: Array.from({ length: 128 }, (_, i) => i) },
    );
    if (result.code === 0) return { kind: 'merged', content: result.stdout };
    return { kind: 'conflicts', count: result.code };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
