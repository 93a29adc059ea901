/**
 * The review's file list as rows: flat (one row per changed file) or a tree (folders first, chains
 * of single folders folded into one row like "src/lib"), conflicts pinned above both, filtered by
 * text, and the order in which the keyboard walks the files. Pure, so it is tested without a
 * screen and drawn virtualized.
 */
import { STATUS_LETTER } from '../../../../shared/change-kinds.ts';
import type { ChangedFile } from '../../../../shared/dto.ts';

/** One row of the list: a folder or a file. */
export type FileRow =
  | {
      kind: 'dir';
      key: string;
      depth: number;
      name: string;
      path: string;
      files: number;
      conflicts: number;
      collapsed: boolean;
    }
  | { kind: 'section'; key: string; depth: 0; name: string; count: number }
  /** `folder` is the folder part shown before the name ("src/lib/"), empty inside the tree. */
  | { kind: 'file'; key: string; depth: number; name: string; folder: string; change: ChangedFile };

/** The status letter of a change, as git shows it (shared with the CLI and the diff header). */
export { STATUS_LETTER };

/** Changes whose path (or old path) contains every word of the filter; "conflict" as a word matches conflicts. */
export function filterChanges(changes: readonly ChangedFile[], filter: string): ChangedFile[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...changes];
  return changes.filter((change) => {
    const text = `${change.path}\n${change.oldPath ?? ''}`.toLowerCase();
    return words.every(
      (word) =>
        text.includes(word) ||
        (word === 'conflict' && change.drift === 'conflict') ||
        word === `:${STATUS_LETTER[change.kind].toLowerCase()}`,
    );
  });
}

/** One row per file, by path, conflicts first under their own heading. */
export function flatRows(changes: readonly ChangedFile[]): FileRow[] {
  const { conflicts, rest } = pinConflicts(changes);
  return [...conflicts, ...sectionHead(conflicts.length, rest.length), ...rest.map((change) => pathRow(change))];
}

/** A file row that shows its folder muted before its name. */
function pathRow(change: ChangedFile): FileRow {
  const slash = change.path.lastIndexOf('/');
  return {
    kind: 'file',
    key: change.path,
    depth: 0,
    name: change.path.slice(slash + 1),
    folder: change.path.slice(0, slash + 1),
    change,
  };
}

/**
 * Conflicts need a person before anything is committed, so they sit above everything else as
 * path rows under a "Conflicts" heading; the rest follows (sorted by path in both parts).
 */
function pinConflicts(changes: readonly ChangedFile[]): { conflicts: FileRow[]; rest: ChangedFile[] } {
  const sorted = [...changes].sort((a, b) => compare(a.path, b.path));
  const pinned = sorted.filter((c) => c.drift === 'conflict');
  if (pinned.length === 0) return { conflicts: [], rest: sorted };
  return {
    conflicts: [
      { kind: 'section', key: '\u0000conflicts', depth: 0, name: 'Conflicts', count: pinned.length },
      ...pinned.map(pathRow),
    ],
    rest: sorted.filter((c) => c.drift !== 'conflict'),
  };
}

/** The heading above the other changes, only when conflicts were pinned above them. */
function sectionHead(pinned: number, rest: number): FileRow[] {
  if (pinned === 0 || rest === 0) return [];
  return [{ kind: 'section', key: '\u0000changes', depth: 0, name: 'Changes', count: rest }];
}

interface Dir {
  dirs: Map<string, Dir>;
  files: ChangedFile[];
  count: number;
  conflicts: number;
}

/** Folders and files as a tree; folders in `collapsed` (by path) hide their contents. */
export function treeRows(
  changes: readonly ChangedFile[],
  collapsed: ReadonlySet<string> = new Set(),
): FileRow[] {
  const { conflicts, rest } = pinConflicts(changes);
  const root: Dir = { dirs: new Map(), files: [], count: 0, conflicts: 0 };
  for (const change of rest) {
    const parts = change.path.split('/');
    let dir = root;
    dir.count++;
    if (change.drift === 'conflict') dir.conflicts++;
    for (const part of parts.slice(0, -1)) {
      let next = dir.dirs.get(part);
      if (!next) {
        next = { dirs: new Map(), files: [], count: 0, conflicts: 0 };
        dir.dirs.set(part, next);
      }
      next.count++;
      if (change.drift === 'conflict') next.conflicts++;
      dir = next;
    }
    dir.files.push(change);
  }
  const rows: FileRow[] = [...conflicts, ...sectionHead(conflicts.length, rest.length)];
  const walk = (dir: Dir, prefix: string, depth: number) => {
    for (const name of [...dir.dirs.keys()].sort(compare)) {
      let child = dir.dirs.get(name) as Dir;
      let label = name;
      // Fold a chain of folders that hold only one folder each ("src" > "lib" becomes "src/lib").
      while (child.files.length === 0 && child.dirs.size === 1) {
        const [only, grandchild] = [...child.dirs.entries()][0] as [string, Dir];
        label = `${label}/${only}`;
        child = grandchild;
      }
      const path = prefix ? `${prefix}/${label}` : label;
      const isCollapsed = collapsed.has(path);
      rows.push({
        kind: 'dir',
        key: `${path}/`,
        depth,
        name: label,
        path,
        files: child.count,
        conflicts: child.conflicts,
        collapsed: isCollapsed,
      });
      if (!isCollapsed) walk(child, path, depth + 1);
    }
    for (const change of [...dir.files].sort((a, b) => compare(a.path, b.path))) {
      rows.push({
        kind: 'file',
        key: change.path,
        depth,
        name: change.path.slice(change.path.lastIndexOf('/') + 1),
        folder: '',
        change,
      });
    }
  };
  walk(root, '', 0);
  return rows;
}

/** The file paths in the order the rows show them (what j/k and the arrows walk). */
export function fileOrder(rows: readonly FileRow[]): string[] {
  return rows.flatMap((row) => (row.kind === 'file' ? [row.change.path] : []));
}

/** The path `step` files away from `current` in `order` (clamped), or the first file when none is selected. */
export function stepFile(order: readonly string[], current: string | null, step: 1 | -1): string | null {
  if (order.length === 0) return null;
  const index = current === null ? -1 : order.indexOf(current);
  if (index < 0) return step > 0 ? (order[0] ?? null) : (order[order.length - 1] ?? null);
  return order[Math.min(order.length - 1, Math.max(0, index + step))] ?? null;
}

/**
 * The folder rows to pin at the top of the list when row `top` is the first one scrolled into
 * view (outermost first): the folders it sits in, so a deep tree never loses its context. Pinned
 * rows cover the rows under them, so the chain is taken for the first row they leave visible.
 */
export function stickyFolders(rows: readonly FileRow[], top: number): Array<Extract<FileRow, { kind: 'dir' }>> {
  let chain: Array<Extract<FileRow, { kind: 'dir' }>> = [];
  for (let round = 0; round < 8; round++) {
    const next = foldersAbove(rows, top + chain.length);
    // Shorter means the covered rows reach past the folder's end: keep the longer, still true chain.
    if (next.length <= chain.length) return chain.length === 0 ? next : chain;
    chain = next;
  }
  return chain;
}

/** The folder rows that contain row `index` (outermost first), stopping at a section heading. */
function foldersAbove(rows: readonly FileRow[], index: number): Array<Extract<FileRow, { kind: 'dir' }>> {
  const row = rows[index];
  if (!row || row.kind === 'section') return [];
  const chain: Array<Extract<FileRow, { kind: 'dir' }>> = [];
  let depth = row.depth;
  for (let i = index - 1; i >= 0 && depth > 0; i--) {
    const above = rows[i] as FileRow;
    if (above.kind === 'section') break;
    if (above.kind === 'dir' && above.depth < depth) {
      chain.unshift(above);
      depth = above.depth;
    }
  }
  return chain;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Why a path is in conflict, as a sentence (capitalised, ending with a period). */
export function conflictSentence(reason: string | null): string {
  const text = (reason ?? 'the original changed here too since the sandbox was made').trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
