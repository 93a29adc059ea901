/**
 * Hunk and line selection against git: for many generated edits, the zero-context patch of just
 * the chosen lines, applied by `git apply --unidiff-zero`, gives byte for byte what
 * applySelection gives. (A git test lives here: shared/ may not touch Node, even in tests.)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  applySelection,
  changeKey,
  filePatch,
  resolveSelection,
  splitLines,
  type ChangeKey,
  type FilePatch,
  type PatchLine,
  type PatchSelection,
} from '../../shared/patch-selection.ts';
import { editSample, keyRange, randomChoice, seededRandom } from '../../shared/patch-selection-samples.ts';

const CASES = 300;
let dir = '';

afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function git(cwd: string, args: string[]): string {
  const run = spawnSync('git', ['-c', 'core.autocrlf=false', '-c', 'core.safecrlf=false', ...args], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

/**
 * The zero-context hunks of the chosen changes, built apart from applySelection: each run of
 * chosen lines not broken by a kept line becomes one hunk, positioned in the original (old
 * side) and in the result so far (new side).
 */
function zeroContextHunks(patch: FilePatch, chosen: ReadonlySet<ChangeKey>): string {
  const out: string[] = [];
  let shift = 0; // result lines minus original lines, over the hunks written so far
  for (const hunk of patch.hunks) {
    let consumed = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    let dels: PatchLine[] = [];
    let adds: PatchLine[] = [];
    let at = consumed;
    const flush = () => {
      if (dels.length + adds.length === 0) return;
      const oldStart = dels.length === 0 ? at : at + 1;
      const newStart = adds.length === 0 ? at + shift : at + shift + 1;
      out.push(`@@ -${oldStart},${dels.length} +${newStart},${adds.length} @@\n`);
      for (const line of dels) out.push(body('-', line));
      for (const line of adds) out.push(body('+', line));
      shift += adds.length - dels.length;
      dels = [];
      adds = [];
    };
    for (const line of hunk.lines) {
      const taken = line.kind !== 'context' && chosen.has(changeKey(line) as ChangeKey);
      if (line.kind === 'add') {
        if (!taken) continue;
        if (dels.length + adds.length === 0) at = consumed;
        adds.push(line);
        continue;
      }
      if (taken) {
        if (dels.length + adds.length === 0) at = consumed;
        dels.push(line);
      } else {
        flush();
      }
      consumed++;
    }
    flush();
  }
  return out.join('');
}

function body(sign: string, line: PatchLine): string {
  return line.eol === '' ? `${sign}${line.text}\n\\ No newline at end of file\n` : `${sign}${line.text}${line.eol}`;
}

describe('applySelection against git apply --unidiff-zero', () => {
  it(`gives git's bytes for ${CASES} generated edits and selections`, () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-patch-selection-')));
    git(dir, ['init', '-q', '.']);
    const cases: Array<{ name: string; original: string; expected: string | null; lineCount: number }> = [];
    const patches: string[] = [];
    for (let seed = 1; cases.length < CASES; seed++) {
      const random = seededRandom(seed * 7919);
      const { original, modified } = editSample(random);
      const patch = filePatch(original, modified);
      const selection: PatchSelection = { lines: randomChoice(patch, random).map(keyRange) };
      const hunks = patch.hunks.length > 0 && random() < 0.3 ? [1 + Math.floor(random() * patch.hunks.length)] : [];
      const full: PatchSelection = { ...selection, hunks };
      const chosen = resolveSelection(patch, full);
      if (chosen.size === 0) continue; // nothing to compare: git refuses an empty patch
      const name = `case-${seed}.txt`;
      fs.writeFileSync(path.join(dir, name), original);
      let expected: string | null;
      try {
        expected = applySelection(original, modified, full);
      } catch (error) {
        expect(String(error), `seed ${seed}`).toMatch(/join two lines/);
        expected = null;
      }
      const dels = [...chosen].filter((key) => key.startsWith('-')).length;
      cases.push({ name, original, expected, lineCount: splitLines(original).length - dels + (chosen.size - dels) });
      patches.push(`diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n${zeroContextHunks(patch, chosen)}`);
    }
    fs.writeFileSync(path.join(dir, 'selected.patch'), patches.join(''));
    git(dir, ['apply', '--unidiff-zero', '--whitespace=nowarn', 'selected.patch']);

    let refused = 0;
    for (const c of cases) {
      const fromGit = fs.readFileSync(path.join(dir, c.name), 'utf8');
      if (c.expected === null) {
        // Bindery refuses exactly where git glues a line with no line break to the next one.
        refused++;
        expect(splitLines(fromGit).length, c.name).toBeLessThan(c.lineCount);
      } else {
        expect(fromGit, c.name).toBe(c.expected);
      }
    }
    // Both outcomes occur, and refusals stay rare.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(CASES / 10);
  });
});
