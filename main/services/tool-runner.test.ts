import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BoundResource } from '../../shared/model.ts';
import { tempDir } from '../testing/fixtures.ts';
import { runDirectory, runTool, slotEnvName } from './tool-runner.ts';

function bound(slotName: string, access: BoundResource['access'], sandboxPath = tempDir()): BoundResource {
  return { slotName, access, sandboxPath, resourceId: 'R', resourceType: 'fs-directory' };
}

describe('runTool', () => {
  it('names slot variables predictably', () => {
    expect(slotEnvName('repo')).toBe('BINDERY_SLOT_REPO');
    expect(slotEnvName('config-dir.v2')).toBe('BINDERY_SLOT_CONFIG_DIR_V2');
  });

  it('runs in the first read_write sandbox with every slot path in the environment', async () => {
    const config = bound('config', 'read_only');
    const repo = bound('repo', 'read_write');
    const chunks: string[] = [];
    const outcome = await runTool({
      command: 'pwd; echo "$BINDERY_SLOT_CONFIG"; echo "$BINDERY_PLAN_ID"; echo changed > edited.txt; echo oops >&2',
      planId: 'PLAN1',
      bound: [config, repo],
      onOutput: (o) => chunks.push(`${o.stream}:${o.text}`),
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.cwd).toBe(repo.sandboxPath);
    expect(outcome.tail).toContain(`${repo.sandboxPath}\n${config.sandboxPath}\nPLAN1\n`);
    expect(chunks.some((c) => c.startsWith('stderr:oops'))).toBe(true);
    expect(fs.readFileSync(path.join(repo.sandboxPath, 'edited.txt'), 'utf8')).toBe('changed\n');
  });

  it("keeps an inherited GIT_DIR or GIT_INDEX_FILE from aiming the tool's git at another repository", async () => {
    const repo = bound('repo', 'read_write');
    const outcome = await runTool({
      command: 'echo "dir=${GIT_DIR-unset} index=${GIT_INDEX_FILE-unset} keep=$KEEP"',
      planId: 'PLAN1',
      bound: [repo],
      baseEnv: { ...process.env, GIT_DIR: '/home/someone/project/.git', GIT_INDEX_FILE: '/home/someone/project/.git/index', KEEP: 'yes' },
    });
    expect(outcome.tail).toContain('dir=unset index=unset keep=yes');
  });

  it("names the review notes' files, and never passes on ones inherited from another plan's run", async () => {
    const repo = bound('repo', 'read_write');
    const show = 'echo "notes=${BINDERY_REVIEW_NOTES-unset} md=${BINDERY_REVIEW_NOTES_MD-unset}"';
    const baseEnv = { ...process.env, BINDERY_REVIEW_NOTES: '/elsewhere/other.json', BINDERY_REVIEW_NOTES_MD: '/elsewhere/other.md' };
    const handed = await runTool({ command: show, planId: 'P', bound: [repo], baseEnv, reviewNotes: { json: '/data/P.json', markdown: '/data/P.md' } });
    expect(handed.tail).toContain('notes=/data/P.json md=/data/P.md');
    const none = await runTool({ command: show, planId: 'P', bound: [repo], baseEnv });
    expect(none.tail).toContain('notes=unset md=unset');
  });

  it('never splices paths into the command: odd directory names stay data', async () => {
    const odd = bound('repo', 'read_write', path.join(tempDir(), '$(touch pwned); x'));
    fs.mkdirSync(odd.sandboxPath);
    const outcome = await runTool({ command: 'printf %s "$BINDERY_SLOT_REPO"', planId: 'P', bound: [odd] });
    expect(outcome.tail).toBe(odd.sandboxPath);
    expect(fs.existsSync(path.join(odd.sandboxPath, 'pwned'))).toBe(false);
  });

  it('reports a failing exit code without throwing', async () => {
    const outcome = await runTool({ command: 'exit 3', planId: 'P', bound: [bound('repo', 'read_write')] });
    expect([outcome.exitCode, outcome.timedOut, outcome.cancelled]).toEqual([3, false, false]);
  });

  it('stops the command and its children on timeout', async () => {
    const outcome = await runTool({ command: 'sleep 30 & sleep 30; echo never', planId: 'P', bound: [bound('repo', 'read_write')], timeoutMs: 200 });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.tail).not.toContain('never');
  });

  it('can be cancelled', async () => {
    const controller = new AbortController();
    const running = runTool({ command: 'echo started; sleep 30', planId: 'P', bound: [bound('repo', 'read_write')], signal: controller.signal, onOutput: () => controller.abort() });
    const outcome = await running;
    expect(outcome.cancelled).toBe(true);
    expect(outcome.exitCode === null || outcome.exitCode !== 0).toBe(true);
  });

  it('refuses to run with nothing bound', () => {
    expect(() => runDirectory([])).toThrow(/no bound resource/);
  });
});
