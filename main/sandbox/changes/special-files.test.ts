import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const posix = process.platform !== 'win32';

/** Runs the scenario in a child that is killed if it blocks (a FIFO opened for reading waits for a writer forever). */
function runChild(...args: string[]): Record<string, unknown> {
  const child = path.join(import.meta.dirname, '../../testing/sandbox/special-files-child.ts');
  const run = spawnSync(process.execPath, ['--import', 'tsx', child, ...args], { encoding: 'utf8', timeout: 30_000, cwd: path.resolve(import.meta.dirname, '../../..') });
  expect(run.signal, 'the child hung (a special file was opened for reading?)').toBeNull();
  expect(run.stderr).toBe('');
  const result = JSON.parse(run.stdout) as { base: string };
  fs.rmSync(result.base, { recursive: true, force: true });
  return result;
}

const FIFO = "the sandbox's FIFO is a special file, which Bindery does not copy or commit";
const SOCKET = "the sandbox's socket is a special file, which Bindery does not copy or commit";

describe.each([
  ['copy_on_write', []],
  ['git_worktree', []],
  ['git_worktree', ['moved-head']],
] as const)('special files a tool made in a %s sandbox %j', (strategy, extra) => {
  it.skipIf(!posix)('are listed as changes that cannot be committed, never as deletions; only a commit that includes them is refused; a restore never reads them as deletions', { timeout: 60_000 }, () => {
    const result = runChild(strategy, ...extra);
    const committed = extra.length > 0 ? [{ path: 'committed.txt', kind: 'added', drift: 'clean' }] : [];
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({
      changes: {
        ok: [
          ...committed,
          { path: 'edit.txt', kind: 'modified', drift: 'clean' },
          { path: 'replaced.txt', kind: 'type_changed', oldType: 'file', newType: null, drift: 'conflict', special: 'FIFO', unreadable: FIFO },
          { path: 'sock', kind: 'added', newType: null, drift: 'conflict', special: 'socket', unreadable: SOCKET },
          { path: 'sub/pipe', kind: 'added', newType: null, drift: 'conflict', special: 'FIFO', unreadable: FIFO },
        ],
      },
      diffPipe: { code: 'io_error', error: expect.stringMatching(/^sub\/pipe: the sandbox's FIFO is a special file.*so it has no diff\. Remove it from the sandbox/) },
      diffEdit: { ok: 'text' },
      commitAll: {
        code: 'conflict',
        error: expect.stringMatching(/3 path\(s\) are special files.*nothing was written\.\n {2}- replaced\.txt: .*FIFO.*\n {2}- sock: .*socket.*\n {2}- sub\/pipe: .*FIFO.*\nRemove them from the sandbox.*choose Keep original for them\.$/s),
      },
      originalAfterRefusal: 'the user wrote this\n',
      commitEdit: { ok: 'committed' },
      originalEdit: 'after\n',
      commitOurs: { ok: 'nothing' },
      originalReplaced: 'the user wrote this\n',
      originalHasNoSpecials: true,
      discard: { ok: 'needs_confirmation' },
      discardYes: 'discarded',
    });
    // A copy moves to the trash and back whole, special files and all; a worktree keeps none (the base stays where a FIFO was).
    const specials = strategy === 'copy_on_write' ? ['added sock', 'added sub/pipe', 'type_changed replaced.txt'] : [];
    expect(new Set(result.afterRestore as string[])).toEqual(new Set([...committed.map((c) => `added ${c.path}`), 'modified edit.txt', ...specials]));
    expect((result.changes as { ok: unknown[] }).ok).toHaveLength(committed.length + 4);
  });
});
