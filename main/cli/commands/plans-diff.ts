/**
 * `bindery plans diff`: the unified diff of a plan's changed files, each `@@` line ending in the
 * hunk id `plans commit --hunks` takes ("hunk 2"), where git apply ignores it. Written in a few
 * large writes: one per file costs a write call each, and a diff of thousands of files adds up.
 */
import type { Command } from 'commander';
import { displayPath } from '../../../shared/display-path.ts';
import type { FileDiff } from '../../../shared/dto.ts';
import { encodeFileDiff } from '../../core/codec.ts';
import type { CliContext } from '../context.ts';
import type { Output } from '../output.ts';

/** Text gathered before it is written: large writes, in bounded memory. */
const WRITE_CHARS = 1 << 20;

/** Registers `plans diff` on the `plans` command group. */
export function registerPlanDiff(plans: Command, context: CliContext): void {
  plans
    .command('diff <plan>')
    .description('unified diff of the changed files')
    .option('--resource <resource>', 'one sandbox: resource name, id or slot name')
    .option('--path <path>', 'one file, relative to the sandbox')
    .action(async (planRef: string, options: { resource?: string; path?: string }) => {
      const out = context.output;
      const diffs = await context.bindery().plans.diff(planRef, options);
      if (out.json) return writeJson(out, diffs);
      let pending = '';
      for (const diff of diffs) {
        pending += diffText(diff);
        if (pending.length < WRITE_CHARS) continue;
        out.raw(pending);
        pending = '';
      }
      if (pending) out.raw(pending);
      if (diffs.length === 0) out.note('No changes.');
    });
}

/**
 * The diffs as one JSON array, the same bytes as the output's JSON of the whole, encoded and
 * written a file at a time and then let go: each file's numbered hunks are an object per line, and
 * all of them at once took a gigabyte for a plan of 5,000 changes.
 */
function writeJson(out: Output, diffs: Array<FileDiff | null>): void {
  if (diffs.length === 0) return out.raw('[]\n');
  let pending = '[\n';
  for (let i = 0; i < diffs.length; i++) {
    // JSON.stringify puts line breaks only between tokens (a string's own are escaped): safe to indent.
    const item = JSON.stringify(encodeFileDiff(diffs[i]!), null, 2).replaceAll('\n', '\n  ');
    diffs[i] = null;
    pending += `  ${item}${i < diffs.length - 1 ? ',' : ''}\n`;
    if (pending.length < WRITE_CHARS) continue;
    out.raw(pending);
    pending = '';
  }
  out.raw(`${pending}]\n`);
}

/** One file's part of the printed diff: its patch, or a line saying why there is none. */
export function diffText(diff: FileDiff): string {
  if (diff.kind === 'text') {
    const text = diff.patch.endsWith('\n') ? diff.patch : `${diff.patch}\n`;
    // A rename with no edit is git's header alone: git apply would read the next file's ---/+++ lines
    // as its own and refuse the whole patch. A blank line ends the header, as the next diff --git would.
    return diff.oldPath && diff.additions + diff.deletions === 0 ? `${text}\n` : text;
  }
  if (diff.kind === 'binary') return `Binary file ${displayPath(diff.path)}: ${diff.oldSize ?? 0} -> ${diff.newSize ?? 0} bytes\n`;
  return `File ${displayPath(diff.path)} is larger than ${diff.limit} bytes: use --json or open it in the app.\n`;
}
