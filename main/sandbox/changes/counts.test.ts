import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../../../shared/dto.ts';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';
import { detectChanges } from './detect.ts';
import { countLineChanges } from '../../../shared/diff/line-match.ts';
import { countOffThread } from './line-count-worker.ts';
import { changeCounters, resetChangeCounters } from './counters.ts';

/** A legacy-style source file: two-space indents, single quotes. */
function legacy(lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) out.push(`function f${i}(a) {`, `  return 'v${i}' + a;`, '}', '');
  return `${out.slice(0, lines).join('\n')}\n`;
}

/** What a formatter run leaves: four-space indents, double quotes. */
function reformat(text: string): string {
  return text.replace(/^ {2}/gm, '    ').replace(/'/g, '"');
}

const FILES: Record<string, string> = {
  'src/legacy.js': legacy(400),
  'crlf.txt': 'one\r\ntwo\r\nthree\r\nfour\r\n',
  'no-newline.txt': 'first\nsecond\nlast',
  'plain.txt': 'a\nb\nc\nd\ne\nf\ng\nh\n',
};

function edit(dir: string): void {
  writeFiles(dir, {
    'src/legacy.js': reformat(FILES['src/legacy.js']!),
    'crlf.txt': 'one\r\nTWO\r\nthree\r\nfour\r\nfive\r\n',
    'no-newline.txt': 'first\nsecond\nlast, longer',
    'plain.txt': 'a\nB\nc\nd\ne\nf\nh\ni\n',
  });
}

/** `git diff --numstat` of one pair of files, as git counts them. */
function gitNumstat(cwd: string, args: string[]): { additions: number; deletions: number } {
  let out: string;
  try {
    out = execFileSync('git', ['diff', '--numstat', ...args], { cwd, encoding: 'utf8' });
  } catch (error) {
    // `--no-index` exits 1 when the files differ.
    out = String((error as { stdout?: string }).stdout);
  }
  const [additions, deletions] = out.trim().split('\t');
  return { additions: Number(additions), deletions: Number(deletions) };
}

function counts(changes: ChangedFile[], rel: string): { additions: number | null; deletions: number | null } {
  const change = changes.find((c) => c.path === rel)!;
  return { additions: change.additions, deletions: change.deletions };
}

describe('line counts', () => {
  it('equal git diff --numstat in a worktree sandbox: a reformatted file, CRLF, no newline at the end', async () => {
    const { manager, plan, dataDir } = newManager();
    const original = gitRepo(FILES);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'git_worktree' });
    edit(sandbox.path);
    const { changes } = await detectChanges(manager.sandbox(sandbox.id), path.join(dataDir, 'tmp'));
    expect(changes.map((c) => c.path).sort()).toEqual(Object.keys(FILES).sort());
    for (const rel of Object.keys(FILES)) {
      expect(counts(changes, rel), rel).toEqual(gitNumstat(sandbox.path, [sandbox.baseCommit!, '--', rel]));
    }
  });

  it.skipIf(process.platform === 'win32')('still come when git refuses the whole diff for a file swapped for a FIFO', async () => {
    const { manager, plan, dataDir } = newManager();
    // More modified files than one pathspec call takes, so git is asked for the whole tree at once.
    const many = Object.fromEntries(Array.from({ length: 520 }, (_, i) => [`src/m${i}.txt`, 'a\nb\nc\nd\ne\nf\ng\n']));
    const original = gitRepo({ ...many, 'pipe.txt': 'was a file\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, Object.fromEntries(Object.keys(many).map((rel) => [rel, 'a\nB\nc\nd\ne\nF\ng\n'])));
    fs.rmSync(path.join(sandbox.path, 'pipe.txt'));
    execFileSync('mkfifo', [path.join(sandbox.path, 'pipe.txt')]);
    const { changes } = await detectChanges(manager.sandbox(sandbox.id), path.join(dataDir, 'tmp'));
    expect(changes).toHaveLength(521);
    expect(counts(changes, 'src/m7.txt')).toEqual({ additions: 2, deletions: 2 });
    expect(changes.find((c) => c.path === 'pipe.txt')?.special).toBe('FIFO');
  });

  it('equal git diff --numstat in a copied sandbox, counted in process', async () => {
    const { manager, plan, dataDir } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, FILES);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    edit(sandbox.path);
    const { changes } = await detectChanges(manager.sandbox(sandbox.id), path.join(dataDir, 'tmp'));
    for (const rel of Object.keys(FILES)) {
      expect(counts(changes, rel), rel).toEqual(gitNumstat(original, ['--no-index', path.join(original, rel), path.join(sandbox.path, rel)]));
    }
  });

  it('counts a large reformatted file on the worker thread as on this one', async () => {
    const before = legacy(40_000);
    const after = reformat(before);
    const here = countLineChanges(before, after);
    resetChangeCounters();
    expect(await countOffThread(Buffer.from(before), Buffer.from(after))).toEqual(here);
    expect(changeCounters().countedOffThread).toBe(1);
    const repo = tempDir('bindery-numstat-');
    fs.writeFileSync(path.join(repo, 'a.js'), before);
    fs.writeFileSync(path.join(repo, 'b.js'), after);
    expect(here).toEqual(gitNumstat(repo, ['--no-index', 'a.js', 'b.js']));
  });

  it('counts edits git counts the same way: changed, inserted and removed lines among repeated ones', () => {
    const cases: Array<[string, string]> = [
      ['x\ny\nx\ny\n', 'y\nx\ny\nx\n'],
      ['}\n}\n}\na\n', 'a\n}\n}\n}\n'],
      ['', 'new\n'],
      ['gone', ''],
      ['same\nend', 'same\nend\n'],
    ];
    const repo = tempDir('bindery-numstat-');
    git(repo, 'init', '-q');
    for (const [before, after] of cases) {
      fs.writeFileSync(path.join(repo, 'a'), before);
      fs.writeFileSync(path.join(repo, 'b'), after);
      expect(countLineChanges(before, after), JSON.stringify([before, after])).toEqual(gitNumstat(repo, ['--no-index', 'a', 'b']));
    }
  });
});
