/**
 * Change lists as deltas (issue 22): what changed between two lists of one sandbox, and the list a
 * client rebuilds from the one it holds plus that delta. Pure: main makes deltas, the renderer
 * applies them, and both sort paths the way the engine does (code-unit order).
 */
import type { ChangedFile, SandboxChangeDelta, SandboxChangeList } from './dto.ts';

/** What changed between two lists: entries added or different (by path), and paths gone. */
export interface ChangeListDiff {
  upserted: ChangedFile[];
  removed: string[];
}

/** The engine's order of a change list: by path, code unit by code unit. */
export function byPath(a: ChangedFile, b: ChangedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** True when two entries say the same thing (every field is a primitive). */
export function sameChange(a: ChangedFile, b: ChangedFile): boolean {
  const left = a as unknown as Record<string, unknown>;
  const right = b as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (left[key] !== right[key]) return false;
  return true;
}

function byKey(changes: readonly ChangedFile[]): Map<string, ChangedFile> | null {
  const map = new Map<string, ChangedFile>();
  for (const change of changes) {
    // A path twice cannot be keyed: the caller sends the whole list instead.
    if (map.has(change.path)) return null;
    map.set(change.path, change);
  }
  return map;
}

/** The delta from `before` to `after`, or null when a list cannot be keyed by path. */
export function diffChangeLists(before: readonly ChangedFile[], after: readonly ChangedFile[]): ChangeListDiff | null {
  const old = byKey(before);
  const now = byKey(after);
  if (!old || !now) return null;
  const upserted: ChangedFile[] = [];
  for (const [path, change] of now) {
    const previous = old.get(path);
    if (!previous || !sameChange(previous, change)) upserted.push(change);
  }
  const removed = [...old.keys()].filter((path) => !now.has(path));
  return { upserted, removed };
}

/**
 * The list `delta` describes, given the list the client holds; null when the delta was made
 * against another version than `held` (the client then asks for the whole list).
 */
export function applyChangeDelta(held: SandboxChangeList | null, delta: SandboxChangeDelta): SandboxChangeList | null {
  switch (delta.kind) {
    case 'full':
      return delta.list;
    case 'unchanged':
      return held && held.version === delta.version && held.sandboxId === delta.sandboxId ? held : null;
    case 'delta': {
      if (!held || held.version !== delta.since || held.sandboxId !== delta.sandboxId) return null;
      const gone = new Set([...delta.removed, ...delta.upserted.map((c) => c.path)]);
      const changes = held.changes.filter((c) => !gone.has(c.path)).concat(delta.upserted).sort(byPath);
      return { ...held, changes, violation: delta.violation, version: delta.version };
    }
  }
}
