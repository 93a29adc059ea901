/**
 * The CLI on a closed pipe (issue 22): `bindery plans diff P | head -1` exits quietly with status 0,
 * as git does, instead of an EPIPE stack trace. A real process behind a real pipe.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, tempDir } from '../testing/fixtures.ts';
import { REPO_ROOT } from '../testing/child-process.ts';
import { CLI_ENV, cliArgs, runCli } from '../testing/cli-process.ts';

const TOOL = 'resource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n    binding: contextual\n';

describe('bindery on a pipe its reader closed', () => {
  it.skipIf(process.platform === 'win32')('plans diff | head -1 prints one line and exits 0 with nothing on stderr', async () => {
    const data = tempDir('bindery-cli-');
    const repo = gitRepo({ 'README.md': '# app\n' });
    const toolFile = path.join(tempDir(), 'one.yaml');
    fs.writeFileSync(toolFile, TOOL);
    for (const args of [
      ['resources', 'add', 'local/app', '--type', 'git-checkout', '--location', repo],
      ['projects', 'add', 'demo'],
      ['projects', 'link', 'demo', 'local/app'],
      ['tools', 'import', toolFile],
    ]) {
      expect((await runCli(data, args)).code, args.join(' ')).toBe(0);
    }
    const created = await runCli(data, ['--json', 'plans', 'create', 'one', '--project', 'demo']);
    expect(created.code, created.stderr).toBe(0);
    const plan = created.json<{ plan_id: string; bound_resources: Array<{ sandbox_path: string }> }>();
    // Far more than a pipe holds (64 KiB), in several files: several writes after head has gone.
    const line = 'a line of the agent that makes the diff long enough to fill the pipe\n';
    for (let index = 0; index < 8; index++) fs.writeFileSync(path.join(plan.bound_resources[0]!.sandbox_path, `big-${index}.txt`), line.repeat(4000));

    const stderrFile = path.join(tempDir(), 'stderr');
    const result = spawnSync(
      'bash',
      ['-c', 'set -o pipefail; err="$1"; shift; "$0" "$@" 2>"$err" | head -1', process.execPath, stderrFile, ...cliArgs(data, ['plans', 'diff', plan.plan_id])],
      { cwd: REPO_ROOT, env: CLI_ENV, encoding: 'utf8' },
    );
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    const stderr = fs.readFileSync(stderrFile, 'utf8');
    // A stale bundle's one-line notice may stand there; never an error.
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(result.status, stderr).toBe(0);
  }, 60_000);
});
