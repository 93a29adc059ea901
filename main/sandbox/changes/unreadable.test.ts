import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsxArgs } from '../../testing/child-process.ts';

// Root reads any file: the child runs as uid 65534, which only root can arrange.
const asRoot = process.getuid?.() === 0;
if (!asRoot) console.warn('unreadable.test.ts: skipping: it runs a child as uid 65534, which needs root.');

function runChild(strategy: string): Record<string, unknown> {
  const child = path.join(import.meta.dirname, '../../testing/sandbox/unreadable-child.ts');
  const run = spawnSync(process.execPath, tsxArgs(child, [strategy]), { encoding: 'utf8', uid: 65534, gid: 65534, cwd: path.resolve(import.meta.dirname, '../../..') });
  expect(run.stderr).toBe('');
  const result = JSON.parse(run.stdout) as { base: string };
  fs.rmSync(result.base, { recursive: true, force: true });
  return result;
}

describe.each(['copy_on_write', 'git_worktree'])('a path that cannot be read, in a %s sandbox or its original', (strategy) => {
  it.skipIf(!asRoot)('is listed by path as unreadable while the rest goes on; only a commit that includes it is refused', () => {
    const result = runChild(strategy);
    expect(result).toMatchObject({
      changes: {
        ok: [
          { path: 'a.txt', kind: 'modified', drift: 'clean' },
          { path: 'secret.txt', kind: 'modified', drift: 'conflict', unreadable: "the sandbox's file cannot be read: permission denied (EACCES)" },
          { path: 'theirs.txt', kind: 'modified', drift: 'conflict', unreadable: "the original's file cannot be read: permission denied (EACCES)" },
        ],
      },
      diffSecret: { code: 'io_error', error: expect.stringMatching(/^secret\.txt: the sandbox's file cannot be read: permission denied \(EACCES\), so its diff cannot be shown\. Make it readable/) },
      diffA: { ok: 'text' },
      commitAll: { code: 'conflict', error: expect.stringMatching(/2 path\(s\) cannot be read, so nothing was written\.\n {2}- secret\.txt: .*\n {2}- theirs\.txt: .*\nMake them readable/) },
      commitA: { ok: 'committed' },
      originalA: 'edited\n',
      discard: { ok: 'needs_confirmation' },
    });
    if (strategy !== 'copy_on_write') return;
    expect(result).toMatchObject({
      lockedChanges: { code: 'io_error', error: expect.stringMatching(/A folder of the sandbox of R1 cannot be read \(.*locked: permission denied\).*Make it readable/) },
      lockedDiscard: { ok: 'unknown' },
    });
  });
});
