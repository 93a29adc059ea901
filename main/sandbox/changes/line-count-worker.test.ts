import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tsxEvalArgs } from '../../testing/child-process.ts';

describe('countOffThread in a process run through tsx (as the CLI runs from its sources)', () => {
  it('counts on the worker thread, not in the fallback', () => {
    const code = `
      import { countOffThread } from './main/sandbox/changes/line-count-worker.ts';
      import { changeCounters } from './main/sandbox/changes/counters.ts';
      const before = Array.from({ length: 40000 }, (_, i) => 'line ' + i + '\\n').join('');
      const after = before.replace(/line 1/g, 'LINE 1');
      const counts = await countOffThread(Buffer.from(before), Buffer.from(after));
      console.log(JSON.stringify({ counts, offThread: changeCounters().countedOffThread }));`;
    const out = execFileSync(process.execPath, tsxEvalArgs(code), { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ counts: { additions: 11111, deletions: 11111 }, offThread: 1 });
  }, 60_000);
});
