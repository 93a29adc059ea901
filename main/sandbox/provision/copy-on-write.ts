/**
 * The copy_on_write strategy (a clone or copy of the original plus its base manifest) and the
 * empty sandbox that write_only slots start from.
 */
import fs from 'node:fs/promises';
import { copyTree, type CopyTreeOptions, type SkippedEntry } from './copy-tree.ts';
import { manifestFile, writeManifest } from '../changes/index.ts';
import type { CopyMethod } from '../../../shared/dto.ts';

/** Copies `original` into the new folder `sandboxPath` and writes the manifest into `meta`. */
export async function provisionCopy(
  original: string,
  sandboxPath: string,
  meta: string,
  options: CopyTreeOptions,
): Promise<{ copyMethod: CopyMethod; files: number; skipped: SkippedEntry[] }> {
  const result = await copyTree(original, sandboxPath, options);
  options.onProgress?.({ phase: 'finishing', done: result.files, total: result.files });
  await writeManifest(manifestFile(meta), result.entries);
  return { copyMethod: result.method, files: result.files, skipped: result.skipped };
}

/** Creates the empty folder of a write_only sandbox, with an empty manifest. */
export async function provisionEmpty(sandboxPath: string, meta: string): Promise<void> {
  await fs.mkdir(sandboxPath);
  await writeManifest(manifestFile(meta), []);
}
