import { describe, expect, it } from 'vitest';
import { applyChangeDelta, diffChangeLists } from './change-delta.ts';
import type { ChangedFile, SandboxChangeList } from './dto.ts';
import { changedFile } from './testing/changed-file.ts';

function change(path: string, extra: Partial<ChangedFile> = {}): ChangedFile {
  return changedFile(path, { deletions: 1, ...extra });
}

function list(version: string, changes: ChangedFile[]): SandboxChangeList {
  return { sandboxId: 'S', planId: 'P', resourceName: 'r', strategy: 'copy_on_write', access: 'read_write', violation: null, version, changes };
}

describe('change-list deltas', () => {
  it('rebuilds the new list, in path order, from the old one and the delta', () => {
    const before = list('3-a', [change('a'), change('b'), change('c')]);
    const after = list('3-b', [change('B'), change('a', { drift: 'applied' }), change('c')]);
    const diff = diffChangeLists(before.changes, after.changes)!;
    expect(diff.upserted.map((c) => c.path)).toEqual(['B', 'a']);
    expect(diff.removed).toEqual(['b']);
    const rebuilt = applyChangeDelta(before, { kind: 'delta', sandboxId: 'S', since: '3-a', version: '3-b', violation: null, ...diff });
    expect(rebuilt).toEqual(after);
  });

  it('keeps the held list for "unchanged", and refuses a delta from another version', () => {
    const held = list('1-a', [change('a')]);
    expect(applyChangeDelta(held, { kind: 'unchanged', sandboxId: 'S', version: '1-a' })).toBe(held);
    expect(applyChangeDelta(held, { kind: 'unchanged', sandboxId: 'S', version: '1-b' })).toBeNull();
    expect(applyChangeDelta(held, { kind: 'delta', sandboxId: 'S', since: '9-z', version: '1-c', violation: null, upserted: [], removed: [] })).toBeNull();
    expect(applyChangeDelta(null, { kind: 'delta', sandboxId: 'S', since: '1-a', version: '1-c', violation: null, upserted: [], removed: [] })).toBeNull();
  });

  it('cannot key a list that names a path twice', () => {
    expect(diffChangeLists([change('a'), change('a')], [change('a')])).toBeNull();
  });
});
