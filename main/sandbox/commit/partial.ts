/**
 * A partial commit of one text file (issue 23): the old side of its diff plus exactly the chosen
 * hunks and lines. While the original is untouched (since the base, or since this sandbox's own
 * last commit), that is the new original. When someone changed the original meanwhile, the chosen
 * changes go onto the original as it is now, each at its shifted place, unless a chosen hunk's
 * old lines touch the original's own changes: that hunk is a conflict, named by its id.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { ConflictError, ValidationError } from '../../../shared/errors.ts';
import { applySelection, changeKey, filePatch, resolveSelection, splitLines, textsFingerprint, type ChangeKey, type FilePatch, type PatchSelection } from '../../../shared/patch-selection.ts';
import type { InspectedChange } from '../changes/index.ts';
import { displayPath } from '../fs/index.ts';
import type { ResolutionValue, SandboxInfo } from '../../../shared/dto.ts';

/** What committing a selection of one file amounts to. */
export type PartialResult =
  | {
      kind: 'text';
      /** The bytes as Latin-1 text (one character a byte). */
      content: string;
      /** False when the original's own changes are in it too: the sandbox did not make all of it. */
      own: boolean;
      /** True when the content is the sandbox's whole file (every change chosen). */
      whole: boolean;
    }
  | HunkConflict;

/** Chosen hunks of one file that changed in the original too (none named: the whole file cannot be told apart). */
export interface HunkConflict {
  kind: 'conflict';
  path: string;
  hunks: number[];
  reason: string;
}

/** A stretch of old lines replaced: 0-based [from, to) in the old side's lines (from = to: an insertion). */
interface Edit {
  from: number;
  to: number;
  lines: string[];
}

/** The content of `item`'s original after committing `selection` of its change, or the hunks in conflict. */
export function partialContent(item: InspectedChange, selection: PatchSelection): PartialResult {
  const { change, target } = item;
  const where = displayPath(change.path);
  if (change.kind !== 'modified' || item.source) {
    const kind = item.source ? 'renamed' : change.kind.replace('_', ' ');
    throw new ValidationError(`${where} is ${kind}: only a modified text file can be committed in part. Commit it whole (leave out its hunks and lines).`, {
      path: change.path,
      kind: change.kind,
    });
  }
  if (change.binary) throw new ValidationError(`${where} is binary: hunks and lines can be chosen only in text files. Commit the whole file instead.`, { path: change.path, binary: true });
  const now = target.sandbox.type === 'file' ? target.sandbox.data : null;
  const original = target.original.type === 'file' ? target.original.data : null;
  if (now === null || (target.baseContent === null && change.drift === 'clean')) {
    throw new ValidationError(`${where} is too large to choose hunks or lines in: commit the whole file instead.`, { path: change.path });
  }
  assertSameTexts(where, change.path, target.baseContent, now, selection);
  // Latin-1 maps each byte to one character and back: bytes that are not UTF-8 survive untouched.
  const newText = now.toString('latin1');
  if (change.drift === 'clean') {
    const oldText = (target.baseContent as Buffer).toString('latin1');
    const content = named(where, () => applySelection(oldText, newText, selection));
    return { kind: 'text', content, own: true, whole: content === newText };
  }
  if (target.baseContent === null || original === null) {
    return {
      kind: 'conflict',
      path: change.path,
      hunks: [],
      reason: `${change.driftReason ?? 'it changed in the original too'}, and the sandbox keeps no base text to tell which hunks that touched: commit the whole file with a conflict choice instead`,
    };
  }
  return ontoChangedOriginal(where, change.path, target.baseContent.toString('latin1'), original.toString('latin1'), newText, selection);
}

/** Refuses a choice made on other texts than these (the file changed after the person chose): its numbers would name other lines. */
function assertSameTexts(where: string, rel: string, base: Buffer | null, now: Buffer, selection: PatchSelection): void {
  if (selection.texts === undefined || base === null) return;
  if (textsFingerprint(base.toString('utf8'), now.toString('utf8')) === selection.texts) return;
  throw new ConflictError(`${where} changed after its hunks and lines were chosen, so nothing was written: look at its diff again and choose them again.`, {
    paths: [{ path: rel, reason: 'changed since the hunks and lines were chosen' }],
    hints: [{ action: 'list-changes' }],
  });
}

/** The chosen changes of base → sandbox put onto an original someone changed since the base. */
function ontoChangedOriginal(where: string, rel: string, base: string, original: string, sandbox: string, selection: PatchSelection): PartialResult {
  const patch = named(where, () => filePatch(base, sandbox));
  const chosen = named(where, () => resolveSelection(patch, selection));
  const theirs = edits(filePatch(base, original), null);
  const conflicts: number[] = [];
  const mine: Edit[] = [];
  for (const hunk of patch.hunks) {
    if (!hunk.lines.some((line) => chosen.has(changeKey(line) as ChangeKey))) continue;
    const made = edits({ hunks: [hunk] }, chosen);
    // The very same change made in the original already (an earlier partial commit of this hunk onto it): nothing to do, no conflict.
    if (made.every((edit) => theirs.some((t) => sameEdit(t, edit)))) continue;
    mine.push(...made);
    const olds = hunk.lines.flatMap((line) => (line.oldNo === null ? [] : [line.oldNo]));
    const span = olds.length > 0 ? { from: Math.min(...olds) - 1, to: Math.max(...olds) } : { from: hunk.oldStart, to: hunk.oldStart };
    // Touching counts: an insertion right beside the original's change has no one right place.
    if (theirs.some((e) => e.from <= span.to && span.from <= e.to)) conflicts.push(hunk.id);
  }
  if (conflicts.length > 0) {
    return { kind: 'conflict', path: rel, hunks: conflicts, reason: `${conflicts.length === 1 ? 'hunk' : 'hunks'} ${conflicts.join(', ')} changed in the original too` };
  }
  const content = named(where, () => splice(splitLines(base), [...theirs, ...mine]));
  return { kind: 'text', content, own: false, whole: false };
}

/** The edits of a patch in old-line positions: all of them (`chosen` null), or only the chosen lines. */
function edits(patch: FilePatch, chosen: ReadonlySet<ChangeKey> | null): Edit[] {
  const out: Edit[] = [];
  for (const hunk of patch.hunks) {
    // The next old line's 0-based index; a hunk with no old lines is headed by the line it follows.
    let at = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    let open: (Edit & { taken: boolean }) | null = null;
    for (const line of hunk.lines) {
      if (line.kind === 'context') {
        if (open?.taken) out.push(open);
        open = null;
        at = (line.oldNo as number);
        continue;
      }
      open ??= { from: at, to: at, lines: [], taken: false };
      const take = chosen === null || chosen.has(changeKey(line) as ChangeKey);
      open.taken ||= take;
      if (line.kind === 'del') {
        open.to = at = line.oldNo as number;
        if (!take) open.lines.push(line.text + line.eol);
      } else if (take) open.lines.push(line.text + line.eol);
    }
    if (open?.taken) out.push(open);
  }
  return out.map(({ from, to, lines }) => ({ from, to, lines }));
}

function sameEdit(a: Edit, b: Edit): boolean {
  return a.from === b.from && a.to === b.to && a.lines.length === b.lines.length && a.lines.every((line, i) => line === b.lines[i]);
}

/** The old lines with disjoint edits made; refuses a result that would glue a line without a break to the next. */
function splice(old: string[], all: Edit[]): string {
  const out: string[] = [];
  let next = 0;
  for (const edit of [...all].sort((a, b) => a.from - b.from || a.to - b.to)) {
    while (next < edit.from) out.push(old[next++] as string);
    out.push(...edit.lines);
    next = Math.max(next, edit.to);
  }
  while (next < old.length) out.push(old[next++] as string);
  if (out.slice(0, -1).some((line) => !line.endsWith('\n'))) {
    throw new ValidationError(
      "This selection would join two lines into one: a last line with no line break at its end would no longer be last. Take the change to the file's last line too, or the whole hunk.",
    );
  }
  return out.join('');
}

/** Runs `make`, naming the file in a refusal of the selection. */
function named<T>(where: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const details = typeof error.details === 'object' && error.details !== null ? error.details : {};
    throw new ValidationError(`${where}: ${error.message}`, { ...details, path: where });
  }
}

/** The refusal of a partial commit some of whose chosen hunks changed in the original too: nothing is written. */
export function hunkConflictError(conflicts: HunkConflict[], what: string): ConflictError {
  const lines = conflicts.map((c) => `  - ${displayPath(c.path)}: ${c.reason}`);
  return new ConflictError(
    `${what}: chosen changes overlap changes made in the original meanwhile, so nothing was written.\n${lines.join('\n')}\n` +
      'Leave those hunks out and commit the others, or commit the whole file and choose Keep original (ours), Take sandbox (theirs) or Merge (merge).',
    {
      paths: conflicts.map((c) => ({ path: c.path, reason: c.reason, hunks: c.hunks })),
      hints: [{ action: 'resolve', paths: conflicts.map((c) => c.path), choices: ['ours', 'theirs', 'merge'] }],
    },
  );
}

/** The selection of each chosen change, by its path; refuses a selection of a path that is not among them. */
export function selectionsFor(chosen: InspectedChange[], selections: Record<string, PatchSelection> | undefined, sandbox: SandboxInfo): (change: InspectedChange['change']) => PatchSelection | undefined {
  const wanted = selections ?? {};
  const known = new Set(chosen.map((c) => c.change.path));
  const unknown = Object.keys(wanted).filter((p) => !known.has(p));
  if (unknown.length > 0) {
    throw new ValidationError(
      `Hunks or lines were chosen in ${unknown.map(displayPath).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not among the changes being committed in the sandbox of ${sandbox.resourceName}: choose them in a changed file, and commit that file.`,
      { unknown, hints: [{ action: 'list-changes', plan: sandbox.planId }] },
    );
  }
  return (change) => (Object.hasOwn(wanted, change.path) ? wanted[change.path] : undefined);
}

/** A file committed in part, staged in `tempDir` with its bytes' hash; or the hunks in conflict. */
export async function stageSelection(
  item: InspectedChange,
  selection: PatchSelection,
  resolution: ResolutionValue | undefined,
  tempDir: string,
): Promise<HunkConflict | { kind: 'staged'; file: string; sha256: string; own: boolean; whole: boolean }> {
  if (resolution !== undefined) {
    throw new ValidationError(
      `${displayPath(item.change.path)} has chosen hunks or lines and a conflict choice (${resolution}): a selection goes onto the original as it is, hunk by hunk. Leave out the choice, or the selection to commit the whole file.`,
      { path: item.change.path },
    );
  }
  const result = partialContent(item, selection);
  if (result.kind === 'conflict') return result;
  const bytes = Buffer.from(result.content, 'latin1');
  await fs.mkdir(tempDir, { recursive: true });
  const file = path.join(tempDir, `selected-${ulid()}`);
  await fs.writeFile(file, bytes);
  return { kind: 'staged', file, sha256: createHash('sha256').update(bytes).digest('hex'), own: result.own, whole: result.whole };
}
