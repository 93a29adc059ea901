/**
 * The dry run of a three-way merge for one conflicting path, made when the commit dialog opens:
 * the same sides and checks the commit's merge uses (operations.ts), run into memory, so Merge is
 * offered only where it will succeed, and a conflict is shown with base, original and sandbox.
 */
import type { MergeHunk, MergePreview, SandboxInfo } from '../../../shared/dto.ts';
import { NotFoundError } from '../../../shared/errors.ts';
import { inspectPath } from '../changes/index.ts';
import { displayPath } from '../fs/index.ts';
import { mergeForView } from './merge.ts';

/** Tries the merge of `relPath` of `sandbox` without writing anything. */
export async function previewMerge(sandbox: SandboxInfo, relPath: string, tempDir: string): Promise<MergePreview> {
  const found = await inspectPath(sandbox, tempDir, relPath);
  if (!found) throw new NotFoundError(`${displayPath(relPath)} has no change in the sandbox of ${sandbox.resourceName} (any more): refresh the file list.`, { path: relPath });
  const { change, target, source } = found;
  const unavailable = (reason: string): MergePreview => ({ path: change.path, outcome: 'unavailable', conflicts: 0, reason, hunks: null });
  if (source) return unavailable('It was renamed in the sandbox; Merge works on a file edited in place.');
  if (change.kind !== 'modified') return unavailable(`It was ${change.kind} in the sandbox; Merge needs a file edited on both sides.`);
  const original = target.original.type === 'file' ? target.original : null;
  const now = target.sandbox.type === 'file' ? target.sandbox : null;
  if (change.binary || original?.binary) return unavailable('It is a binary file; Merge works on text.');
  if (!original) return unavailable('The original no longer has it as a file.');
  if (target.baseContent === null) {
    return unavailable('Its base is not known (a copied folder keeps it only while the original is unchanged), so a three-way merge cannot be made.');
  }
  if (original.data === null || !now?.data) return unavailable('It is too large to merge here.');
  const merged = await mergeForView(target.baseContent, original.data, now.data, tempDir, displayPath(change.path));
  const hunks = parseDiff3(merged.content.toString('utf8'));
  if (merged.conflicts === 0) return { path: change.path, outcome: 'clean', conflicts: 0, reason: null, hunks };
  return {
    path: change.path,
    outcome: 'conflicts',
    conflicts: merged.conflicts,
    reason: `The same lines changed in the original and in the sandbox (${merged.conflicts} conflicting ${merged.conflicts === 1 ? 'hunk' : 'hunks'}): choose Keep original or Take sandbox, or edit the file in the sandbox.`,
    hunks,
  };
}

/** Splits `git merge-file --diff3` output (labels original/, base/, sandbox/) into stretches. */
export function parseDiff3(text: string): MergeHunk[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const hunks: MergeHunk[] = [];
  let same: string[] = [];
  let conflict: { base: string[]; original: string[]; sandbox: string[] } | null = null;
  let side: 'original' | 'base' | 'sandbox' = 'original';
  for (const line of lines) {
    if (!conflict && line.startsWith('<<<<<<< original/')) {
      if (same.length > 0) hunks.push({ kind: 'same', lines: same });
      same = [];
      conflict = { base: [], original: [], sandbox: [] };
      side = 'original';
    } else if (conflict && side === 'original' && line.startsWith('||||||| base/')) side = 'base';
    else if (conflict && side === 'base' && line === '=======') side = 'sandbox';
    else if (conflict && side === 'sandbox' && line.startsWith('>>>>>>> sandbox/')) {
      hunks.push({ kind: 'conflict', ...conflict });
      conflict = null;
    } else if (conflict) conflict[side].push(line);
    else same.push(line);
  }
  if (same.length > 0) hunks.push({ kind: 'same', lines: same });
  return hunks;
}
