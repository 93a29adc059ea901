import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../shared/contract.ts';
import { apiHarness, type ApiHarness } from '../../testing/api-harness.ts';

// The tool is never run: the tests write into the sandbox themselves, as a tool would.
const TOOL = `name: editor
description: edits the repository
run: "true"
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
`;

let api: ApiHarness;
let repo: string;
beforeEach(async () => {
  api = await apiHarness({ files: { 'README.md': '# demo\n', 'notes.txt': 'notes\n' }, tools: [TOOL] });
  repo = api.repo;
});
afterEach(() => api.close());

const call = <M extends MethodName>(method: M, input?: unknown) => api.call(method, input);
const failure = (method: MethodName, input: unknown) => api.failure(method, input);

/** A ready plan whose sandbox holds two changes. */
async function editedPlan(): Promise<{ planId: string; sandboxId: string; sandboxPath: string }> {
  const sandbox = await api.readyPlan('editor');
  fs.writeFileSync(path.join(sandbox.sandboxPath, 'README.md'), '# demo, edited\n');
  fs.writeFileSync(path.join(sandbox.sandboxPath, 'added.txt'), 'added\n');
  return sandbox;
}

const originalFiles = () => fs.readdirSync(repo).filter((name) => name !== '.git').sort();

describe('commit selections and change-list versions through the API', () => {
  it('refuses paths: [] as a selection of nothing, and writes nothing', async () => {
    const { planId, sandboxId } = await editedPlan();
    const error = await failure('commitSandbox', { plan: planId, sandbox: sandboxId, paths: [] });
    expect(error).toMatchObject({ code: 'validation_error', message: 'No paths selected: choose files to commit, or commit all.' });
    expect(originalFiles()).toEqual(['README.md', 'notes.txt']);
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# demo\n');
    // Without paths it is all of them.
    const [report] = await call('commitSandbox', { plan: planId, sandbox: sandboxId });
    expect(report?.written).toEqual(['README.md', 'added.txt']);
  });

  it('refuses a commit of the reviewed version once a file was added, with the new count, then commits the new version', async () => {
    const { planId, sandboxId, sandboxPath } = await editedPlan();
    const [list] = await call('planChanges', { plan: planId, sandbox: sandboxId });
    expect(list?.version).toMatch(/^2-[0-9a-f]{16}$/);
    fs.writeFileSync(path.join(sandboxPath, 'late.txt'), 'late\n');

    const error = await failure('commitSandbox', { plan: planId, sandbox: sandboxId, expectedVersion: list!.version });
    expect(error.code).toBe('conflict');
    expect(error.message).toBe('The sandbox of local/app has 3 changes now, 2 when you reviewed it: review again, then commit. Nothing was written.');
    expect(originalFiles()).toEqual(['README.md', 'notes.txt']);

    const [again] = await call('planChanges', { plan: planId, sandbox: sandboxId });
    expect(error.details).toMatchObject({ reason: 'changes_changed', reviewed: 2, now: 3, version: again!.version });
    const [report] = await call('commitSandbox', { plan: planId, sandbox: sandboxId, expectedVersion: again!.version });
    expect(report?.written).toEqual(['README.md', 'added.txt', 'late.txt']);
  });

  it('checks commitPlan against versions keyed by any sandbox reference, and rejects what is not a version', async () => {
    const { planId, sandboxPath } = await editedPlan();
    const [list] = await call('planChanges', { plan: planId });
    fs.writeFileSync(path.join(sandboxPath, 'README.md'), '# demo, edited again\n');
    const stale = await failure('commitPlan', { plan: planId, expectedVersions: { 'local/app': list!.version } });
    expect(stale.message).toMatch(/^The changes in the sandbox of local\/app are not the ones you reviewed \(2 changes, as before\)/);
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# demo\n');

    const bad = await failure('commitPlan', { plan: planId, expectedVersions: { repo: 'latest' } });
    expect(bad.code).toBe('validation_error');
    expect(bad.message).toContain('is not a change-list version');

    const [fresh] = await call('planChanges', { plan: planId });
    const reports = await call('commitPlan', { plan: planId, expectedVersions: { repo: fresh!.version } });
    expect(reports.map((r) => r.committed)).toEqual([true]);
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# demo, edited again\n');
  });
});
