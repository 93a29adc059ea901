/**
 * `plans commit --hunks 1,3` (of the one `--path`) and `--lines path:10-14,20` (repeatable): the
 * chosen hunks and lines as the commit takes them, and the words for what stays pending.
 */
import { BinderyError } from '../../../shared/errors.ts';
import { displayPath } from '../../../shared/display-path.ts';
import type { PatchSelection } from '../../../shared/patch-selection.ts';
import { parseHunkIds, parseLineSpecs } from '../../../shared/patch-selection-spec.ts';

/** The paths to commit and the selection of each file chosen in part (none when neither flag is given). */
export function parseSelections(
  paths: string[] | undefined,
  hunks: string | undefined,
  lines: string[] | undefined,
): { paths: string[] | undefined; selections: Record<string, PatchSelection> | undefined } {
  if (hunks === undefined && lines === undefined) return { paths, selections: undefined };
  const selections: Record<string, { hunks?: number[]; lines?: PatchSelection['lines'] }> = {};
  if (hunks !== undefined) {
    if (paths?.length !== 1 || paths[0]!.endsWith('/')) {
      throw new BinderyError('usage', '--hunks applies to one file: give exactly one --path (a file, not a folder), or choose lines with --lines path:10-14 instead.');
    }
    selections[paths[0]!] = { hunks: parseHunkIds(hunks) };
  }
  for (const spec of parseLineSpecs(lines ?? [])) (selections[spec.path] ??= {}).lines = spec.ranges;
  // A file chosen in part is committed, and only what the flags name: never everything else with it.
  const all = [...(paths ?? []), ...Object.keys(selections)];
  return { paths: [...new Set(all)], selections };
}

/** What a partial commit left: which files took only part of their changes, and how many changes stay pending. */
export function describePartial(partial: readonly string[], left: number | undefined): string {
  if (partial.length === 0) return '';
  const pending = left === undefined ? '' : ` ${left} change(s) stay pending in the sandbox; "plans diff" shows them.`;
  return ` Wrote only the chosen changes of ${partial.map(displayPath).join(', ')}; the rest stays in the sandbox.${pending}`;
}
