/** commitSandbox with selections through the API: the report's `partial`, its sentence, and the viewer's diff of what is pending. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiHarness, type ApiHarness } from '../../testing/api-harness.ts';

const TOOL = `name: editor
run: "true"
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
`;

const text = (edit: Record<number, string> = {}) => Array.from({ length: 30 }, (_, i) => `${edit[i + 1] ?? `line ${i + 1}`}\n`).join('');

let api: ApiHarness;
beforeEach(async () => {
  api = await apiHarness({ files: { 'f.txt': text() }, tools: [TOOL] });
});
afterEach(() => api.close());

describe('commitSandbox with selections', () => {
  it('reports the file committed in part, and the viewer then shows only what is pending, clean', async () => {
    const { planId, sandboxId, sandboxPath } = await api.readyPlan('editor');
    fs.writeFileSync(path.join(sandboxPath, 'f.txt'), text({ 3: 'three', 25: 'twenty-five' }));
    const [report] = await api.call('commitSandbox', { plan: planId, sandbox: sandboxId, paths: ['f.txt'], selections: { 'f.txt': { hunks: [2] } } });
    expect(report).toMatchObject({ committed: true, written: ['f.txt'], partial: ['f.txt'] });
    expect(report?.summary).toContain('Of 1 file (f.txt) only the chosen changes were written; the rest stays pending in the sandbox.');
    expect(fs.readFileSync(path.join(api.repo, 'f.txt'), 'utf8')).toBe(text({ 25: 'twenty-five' }));

    const view = await api.call('fileDiff', { plan: planId, sandbox: sandboxId, path: 'f.txt' });
    expect([view.oldText, view.newText, view.drift]).toEqual([text({ 25: 'twenty-five' }), text({ 3: 'three', 25: 'twenty-five' }), 'clean']);
    const [list] = await api.call('planChanges', { plan: planId, sandbox: sandboxId });
    expect(list?.changes).toMatchObject([{ path: 'f.txt', drift: 'clean', additions: 1, deletions: 1 }]);
  });

  it('refuses a hunk id the file does not have, with its hunk count, and writes nothing', async () => {
    const { planId, sandboxId, sandboxPath } = await api.readyPlan('editor');
    fs.writeFileSync(path.join(sandboxPath, 'f.txt'), text({ 3: 'three' }));
    const error = await api.failure('commitSandbox', { plan: planId, sandbox: sandboxId, selections: { 'f.txt': { hunks: [2] } } });
    expect(error).toMatchObject({ code: 'validation_error', message: "f.txt: There is no hunk 2: this file's diff has 1 hunk, numbered 1 to 1." });
    expect(fs.readFileSync(path.join(api.repo, 'f.txt'), 'utf8')).toBe(text());
  });
});
