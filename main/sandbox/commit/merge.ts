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
  const result = await mergeFile(base, ours, theirs, tempDir, label, []);
  return result.conflicts === 0 ? { kind: 'merged', content: result.content } : { kind: 'conflicts', count: result.conflicts };
}

/** The merge with conflicts marked in diff3 style (base between the two sides), for showing, never for writing. */
export async function mergeForView(base: Buffer, ours: Buffer, theirs: Buffer, tempDir: string, label: string): Promise<{ content: Buffer; conflicts: number }> {
  return mergeFile(base, ours, theirs, tempDir, label, ['--diff3']);
}

async function mergeFile(base: Buffer, ours: Buffer, theirs: Buffer, tempDir: string, label: string, extra: string[]): Promise<{ content: Buffer; conflicts: number }> {
  const dir = path.join(tempDir, `merge-${ulid()}`);
  await fs.mkdir(dir, { recursive: true });
  try {
    const files = { ours: path.join(dir, 'ours'), base: path.join(dir, 'base'), theirs: path.join(dir, 'theirs') };
    await Promise.all([fs.writeFile(files.ours, ours), fs.writeFile(files.base, base), fs.writeFile(files.theirs, theirs)]);
    const result = await git(
      'merge-file',
      ['merge-file', '-p', ...extra, '-L', `original/${label}`, '-L', `base/${label}`, '-L', `sandbox/${label}`, files.ours, files.base, files.theirs],
      { cwd: dir, okCodes: Array.from({ length: 128 }, (_, i) => i) },
    );
    return { content: result.stdout, conflicts: result.code };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
