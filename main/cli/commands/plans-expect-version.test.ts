/** `bindery plans commit --expect-version` end to end through main(), on a real repository. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BinderyError } from '../../../shared/errors.ts';
import { cliPlan, runCli } from '../../testing/cli-process.ts';
import { parseExpectedVersions } from './plans.ts';

const TOOL = `name: editor
description: edits the repository
run: "true"
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
`;

describe('bindery plans commit --expect-version', () => {
  it('commits only the change list whose version it was given, and "plans changes" shows the version', async () => {
    const { data, repo, planId, sandboxPath: sandbox } = await cliPlan('editor', TOOL);
    fs.writeFileSync(path.join(sandbox, 'README.md'), '# app, edited\n');

    const listed = await runCli(data, ['--json', 'plans', 'changes', planId]);
    const [{ version }] = listed.json<Array<{ version: string }>>() as [{ version: string }];
    expect(version).toMatch(/^1-[0-9a-f]{16}$/);
    expect((await runCli(data, ['plans', 'changes', planId])).stdout).toContain(`1 change(s), version ${version}`);

    fs.writeFileSync(path.join(sandbox, 'late.txt'), 'late\n');
    const refused = await runCli(data, ['plans', 'commit', planId, '--expect-version', version]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The sandbox of local/app has 2 changes now, 1 when you reviewed it: review again, then commit.');
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# app\n');

    const now = (await runCli(data, ['--json', 'plans', 'changes', planId])).json<Array<{ version: string }>>()[0]!.version;
    const done = await runCli(data, ['plans', 'commit', planId, '--expect-version', `local/app=${now}`]);
    expect(done.code, done.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo, 'late.txt'), 'utf8')).toBe('late\n');
  });

  it('parses bare and named versions, and says how to write them', () => {
    const v = '3-0123456789abcdef';
    expect(parseExpectedVersions()).toEqual({});
    expect(parseExpectedVersions([v])).toEqual({ expectedVersion: v });
    expect(parseExpectedVersions([`app=${v}`, `docs=${v}`])).toEqual({ expectedVersions: { app: v, docs: v } });
    expect(() => parseExpectedVersions(['latest'])).toThrow(BinderyError);
    expect(() => parseExpectedVersions(['latest'])).toThrow(/--expect-version takes \[resource=\]version/);
    expect(() => parseExpectedVersions([v, v])).toThrow(/name each sandbox/);
  });
});
