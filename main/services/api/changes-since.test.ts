import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyChangeDelta } from '../../../shared/change-delta.ts';
import type { MethodName } from '../../../shared/contract.ts';
import { apiHarness, type ApiHarness } from '../../testing/api-harness.ts';
import type { SandboxChangeList } from '../../../shared/dto.ts';
import { ChangeListHistory } from './change-history.ts';

// The tool is never run: the tests write into the sandbox themselves, as a tool would.
const TOOL = `name: editor
run: "true"
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
`;

let api: ApiHarness;
beforeEach(async () => {
  api = await apiHarness({ files: { 'README.md': '# demo\n', 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' }, tools: [TOOL] });
});
afterEach(() => api.close());

const call = <M extends MethodName>(method: M, input?: unknown) => api.call(method, input);
const readyPlan = () => api.readyPlan('editor');

describe('changesSince', () => {
  it('sends the whole list first, then "unchanged" with no files, then only what changed', async () => {
    const { planId, sandboxId, sandboxPath } = await readyPlan();
    fs.writeFileSync(path.join(sandboxPath, 'a.txt'), 'a, edited\n');
    fs.writeFileSync(path.join(sandboxPath, 'b.txt'), 'b, edited\n');

    const first = await call('changesSince', { plan: planId, sandbox: sandboxId });
    expect(first.kind).toBe('full');
    const held = first.kind === 'full' ? first.list : null;
    expect(held?.changes.map((c) => c.path)).toEqual(['a.txt', 'b.txt']);

    const idle = await call('changesSince', { plan: planId, sandbox: sandboxId, since: held!.version });
    expect(idle).toEqual({ kind: 'unchanged', sandboxId, version: held!.version });
    expect(JSON.stringify(idle)).not.toContain('a.txt');

    fs.writeFileSync(path.join(sandboxPath, 'b.txt'), 'b, edited again\nand longer\n');
    fs.rmSync(path.join(sandboxPath, 'c.txt'));
    fs.writeFileSync(path.join(sandboxPath, 'a.txt'), 'a\n');
    const delta = await call('changesSince', { plan: planId, sandbox: sandboxId, since: held!.version });
    expect(delta.kind).toBe('delta');
    if (delta.kind !== 'delta') return;
    expect(delta.since).toBe(held!.version);
    expect(delta.upserted.map((c) => [c.path, c.kind])).toEqual([
      ['b.txt', 'modified'],
      ['c.txt', 'deleted'],
    ]);
    expect(delta.removed).toEqual(['a.txt']);
    // The client's list plus the delta is the list a full request gives.
    const [whole] = await call('planChanges', { plan: planId, sandbox: sandboxId });
    expect(applyChangeDelta(held, delta)).toEqual(whole);
  });

  it('sends the whole list for a version it does not know, and after a commit only the committed entries', async () => {
    const { planId, sandboxId, sandboxPath } = await readyPlan();
    for (const name of ['a.txt', 'b.txt', 'c.txt']) fs.writeFileSync(path.join(sandboxPath, name), `${name} edited\n`);
    const unknown = await call('changesSince', { plan: planId, sandbox: sandboxId, since: `3-${'0'.repeat(16)}` });
    expect(unknown.kind).toBe('full');
    const held = unknown.kind === 'full' ? unknown.list! : null;

    const [report] = await call('commitSandbox', { plan: planId, sandbox: sandboxId, paths: ['a.txt', 'b.txt'], expectedVersion: held!.version });
    expect(report?.committed).toBe(true);
    const after = await call('changesSince', { plan: planId, sandbox: sandboxId, since: held!.version });
    expect(after.kind).toBe('delta');
    if (after.kind !== 'delta') return;
    expect(after.upserted.map((c) => [c.path, c.drift])).toEqual([
      ['a.txt', 'applied'],
      ['b.txt', 'applied'],
    ]);
    expect(after.removed).toEqual([]);
  });

  it('refuses a malformed version at the boundary', async () => {
    const { planId, sandboxId } = await readyPlan();
    const result = await api.dispatch('changesSince', { plan: planId, sandbox: sandboxId, since: 'latest' });
    expect(result.ok).toBe(false);
  });
});

describe('ChangeListHistory', () => {
  const list = (version: string, paths: string[]): SandboxChangeList => ({
    sandboxId: 'S',
    planId: 'P',
    resourceName: 'local/app',
    strategy: 'git_worktree',
    access: 'read_write',
    violation: null,
    version,
    changes: paths.map((p) => ({
      path: p,
      oldPath: null,
      kind: 'added',
      oldType: null,
      newType: 'file',
      oldMode: null,
      newMode: 0o100644,
      size: 1,
      binary: false,
      additions: 1,
      deletions: 0,
      drift: 'clean',
      driftReason: null,
    })),
  });

  it('keeps a bounded number of versions per sandbox', () => {
    const history = new ChangeListHistory(2, 8);
    history.answer(list('1-a', ['x']), undefined);
    history.answer(list('2-b', ['x', 'y']), undefined);
    history.answer(list('3-c', ['x', 'y', 'z']), undefined);
    // 1-a fell out: its holder gets the whole list; 2-b is still known.
    expect(history.answer(list('3-c', ['x', 'y', 'z']), '1-a').kind).toBe('full');
    expect(history.answer(list('3-c', ['x', 'y', 'z']), '2-b').kind).toBe('delta');
  });

  it('keeps no more changed files than its budget, dropping the least recently asked sandbox first', () => {
    const history = new ChangeListHistory(4, 8, 5);
    const other = (version: string, paths: string[]) => ({ ...list(version, paths), sandboxId: 'sb-other' });
    history.answer(other('1-o', ['a', 'b', 'c']), undefined);
    history.answer(list('1-a', ['x', 'y', 'z']), undefined);
    // Six entries over a budget of five: the other sandbox's list went, the asking one stays.
    expect(history.answer(list('1-a', ['x', 'y', 'z']), '1-a').kind).toBe('unchanged');
    expect(history.answer(other('1-o', ['a', 'b', 'c']), '1-o').kind).toBe('full');
  });

  it('sends the whole list when most of it changed', () => {
    const history = new ChangeListHistory();
    const many = Array.from({ length: 40 }, (_, i) => `f${i}`);
    history.answer(list('40-a', many), undefined);
    expect(history.answer(list('0-b', []), '40-a').kind).toBe('full');
  });
});
