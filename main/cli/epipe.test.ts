/**
 * The CLI on a closed pipe (issue 22): `bindery plans diff P | head -1` exits quietly with status 0,
 * as git does, instead of an EPIPE stack trace. A real process behind a real pipe.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { REPO_ROOT } from '../testing/child-process.ts';
import { CLI_ENV, cliArgs, cliPlan } from '../testing/cli-process.ts';

const TOOL = 'resource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n    binding: contextual\n';

describe('bindery on a pipe its reader closed', () => {
  it.skipIf(process.platform === 'win32')('plans diff | head -1 prints one line and exits 0 with nothing on stderr', async () => {
    const { data, planId, sandboxPath } = await cliPlan('one', TOOL);
    // Far more than a pipe holds (64 KiB), in several files: several writes after head has gone.
    const line = 'a line of the agent that makes the diff long enough to fill the pipe\n';
    for (let index = 0; index < 8; index++) fs.writeFileSync(path.join(sandboxPath, `big-${index}.txt`), line.repeat(4000));

    const stderrFile = path.join(tempDir(), 'stderr');
    const result = spawnSync(
      'bash',
      ['-c', 'set -o pipefail; err="$1"; shift; "$0" "$@" 2>"$err" | head -1', process.execPath, stderrFile, ...cliArgs(data, ['plans', 'diff', planId])],
      { cwd: REPO_ROOT, env: CLI_ENV, encoding: 'utf8' },
    );
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    const stderr = fs.readFileSync(stderrFile, 'utf8');
    // A stale bundle's one-line notice may stand there; never an error.
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(result.status, stderr).toBe(0);
  }, 60_000);
});
