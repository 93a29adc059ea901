import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../../shared/errors.ts';
import { gitRepo, writeFiles } from '../../testing/fixtures.ts';
import { caught, newManager, plainDir, readText as read } from '../../testing/sandbox/harness.ts';

/** 40 numbered lines; `edit` replaces some of them. */
function text(edit: Record<number, string> = {}): string {
  return Array.from({ length: 40 }, (_, i) => `${edit[i + 1] ?? `line ${i + 1}`}\n`).join('');
}

// Four changes far enough apart to make four hunks: lines 2, 12, 22 and 32.
const EDITS = { 2: 'two', 12: 'twelve', 22: 'twenty-two', 32: 'thirty-two' };

async function setup(strategy: 'copy_on_write' | 'git_worktree', extra: Record<string, string> = {}) {
  const { manager, plan } = newManager();
  const files = { 'f.txt': text(), 'other.txt': 'other\n', ...extra };
  const original = strategy === 'git_worktree' ? gitRepo(files) : plainDir(files);
  const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
  writeFiles(sandbox.path, { 'f.txt': text(EDITS) });
  return { manager, original, sandbox };
}

const pending = async (manager: Awaited<ReturnType<typeof setup>>['manager'], id: string) => (await manager.changes(id)).changes.filter((c) => c.drift !== 'applied');

describe.each(['copy_on_write', 'git_worktree'] as const)('partial commit (%s)', (strategy) => {
  it('commits two hunks of four, then the rest later; the original ends as the sandbox', async () => {
    const { manager, original, sandbox } = await setup(strategy);
    const diff = await manager.diff(sandbox.id, 'f.txt');
    expect(diff.kind === 'text' && diff.hunks.map((h) => h.id)).toEqual([1, 2, 3, 4]);
    expect(diff.kind === 'text' && diff.patch).toContain('@@ -9,7 +9,7 @@ hunk 2\n');

    const first = await manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [1, 3] } } });
    expect(first).toMatchObject({ kind: 'committed', partial: ['f.txt'], commit: { written: ['f.txt'] } });
    expect(read(original, 'f.txt')).toBe(text({ 2: 'two', 22: 'twenty-two' }));
    expect(read(sandbox.path, 'f.txt')).toBe(text(EDITS));
    // The rest is still pending, clean (not a conflict), and numbered afresh from 1.
    const left = await pending(manager, sandbox.id);
    expect(left).toMatchObject([{ path: 'f.txt', kind: 'modified', drift: 'clean', additions: 2, deletions: 2 }]);
    const rest = await manager.diff(sandbox.id, 'f.txt');
    expect(rest.kind === 'text' && rest.hunks.map((h) => [h.id, h.oldStart])).toEqual([
      [1, 9],
      [2, 29],
    ]);

    const second = await manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [1, 2] } } });
    expect(second).toMatchObject({ kind: 'committed', partial: [] });
    expect(read(original, 'f.txt')).toBe(text(EDITS));
    expect(await pending(manager, sandbox.id)).toEqual([]);
  });

  it('commits chosen lines by number; the whole rest goes with a plain commit', async () => {
    const { manager, original, sandbox } = await setup(strategy);
    await manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { lines: [{ side: 'both', from: 12, to: 12 }, { side: 'new', from: 32, to: 32 }] } } });
    // Line 32's addition without its deletion: the old line stays, the new one after it.
    const lines = text({ 12: 'twelve' }).split('\n');
    lines.splice(32, 0, 'thirty-two');
    expect(read(original, 'f.txt')).toBe(lines.join('\n'));
    expect(read(original, 'other.txt')).toBe('other\n');
    await manager.commit(sandbox.id, { paths: ['f.txt'] });
    expect(read(original, 'f.txt')).toBe(text(EDITS));
  });

  it('undoes a partial commit: the original is back and every change pending again', async () => {
    const { manager, original, sandbox } = await setup(strategy);
    await manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [4] } } });
    expect(read(original, 'f.txt')).toBe(text({ 32: 'thirty-two' }));
    const undone = await manager.undo(sandbox.id);
    expect(undone.restored).toEqual(['f.txt']);
    expect(read(original, 'f.txt')).toBe(text());
    expect(await pending(manager, sandbox.id)).toMatchObject([{ path: 'f.txt', drift: 'clean', additions: 4, deletions: 4 }]);
  });

  it('refuses what cannot be taken in part, naming the file and saying what to do', async () => {
    const { manager, sandbox } = await setup(strategy, { 'bin.dat': 'a\0b\n', 'gone.txt': 'gone\n' });
    writeFiles(sandbox.path, { 'bin.dat': 'a\0c\n', 'new.txt': 'new\n' });
    fs.rmSync(path.join(sandbox.path, 'gone.txt'));
    const refusal = async (selections: Record<string, { hunks?: number[]; lines?: Array<{ side: 'both'; from: number; to: number }> }>) => {
      const error = await caught(manager.commit(sandbox.id, { paths: Object.keys(selections), selections }));
      expect(error).toBeInstanceOf(ValidationError);
      return (error as Error).message;
    };
    expect(await refusal({ 'bin.dat': { hunks: [1] } })).toMatch(/bin\.dat is binary.*Commit the whole file/);
    expect(await refusal({ 'new.txt': { hunks: [1] } })).toMatch(/new\.txt is added: only a modified text file/);
    expect(await refusal({ 'gone.txt': { hunks: [1] } })).toMatch(/gone\.txt is deleted/);
    expect(await refusal({ 'f.txt': { hunks: [5] } })).toMatch(/f\.txt: There is no hunk 5: this file's diff has 4 hunks, numbered 1 to 4/);
    expect(await refusal({ 'f.txt': { lines: [{ side: 'both', from: 5, to: 8 }] } })).toMatch(/f\.txt: Lines 5-8 hold no changed line/);
    const outside = await caught(manager.commit(sandbox.id, { paths: ['new.txt'], selections: { 'f.txt': { hunks: [1] } } }));
    expect((outside as Error).message).toMatch(/f\.txt, which is not among the changes being committed/);
    expect(read(sandbox.originalPath, 'f.txt')).toBe(text());
  });
});

describe('partial commit onto an original changed meanwhile', () => {
  it('refuses a chosen hunk that overlaps the change, names it, and puts the others where they now are (git_worktree)', async () => {
    const { manager, original, sandbox } = await setup('git_worktree');
    // Someone else edits line 13 (beside hunk 2) and inserts two lines at the top (shifting the rest).
    const theirs = `top A\ntop B\n${text({ 13: 'THIRTEEN' })}`;
    fs.writeFileSync(path.join(original, 'f.txt'), theirs);
    const error = await caught(manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [2, 3] } } }));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toMatch(/f\.txt: hunk 2 changed in the original too/);
    expect((error as Error).message).toMatch(/Leave those hunks out and commit the others/);
    expect((error as ConflictError).details).toMatchObject({ paths: [{ path: 'f.txt', hunks: [2] }] });
    expect(read(original, 'f.txt')).toBe(theirs);

    await manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [3, 4] } } });
    expect(read(original, 'f.txt')).toBe(`top A\ntop B\n${text({ 13: 'THIRTEEN', 22: 'twenty-two', 32: 'thirty-two' })}`);
    // The sandbox did not make all of that: the file stays in conflict for the rest, never passed over.
    expect((await pending(manager, sandbox.id))[0]).toMatchObject({ path: 'f.txt', drift: 'conflict' });
  });

  it('refuses the whole file for a copy, which keeps no base text to tell hunks apart', async () => {
    const { manager, original, sandbox } = await setup('copy_on_write');
    fs.writeFileSync(path.join(original, 'f.txt'), text({ 40: 'forty' }));
    const error = await caught(manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [1] } } }));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toMatch(/keeps no base text to tell which hunks that touched: commit the whole file with a conflict choice/);
  });
});
