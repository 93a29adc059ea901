/**
 * One line diff everywhere: for many generated edits, the changed lines the viewer shows
 * (renderer line-diff.ts), the hunks a partial commit selects from (shared/patch-selection.ts)
 * and the patch `plans diff` prints (main/sandbox/changes/patch.ts) are the same lines, in the
 * same hunks. (It spans the renderer, shared/ and the engine, so it lives here.)
 */
import { describe, expect, it } from 'vitest';
import { unifiedPatch } from '../sandbox/changes/patch.ts';
import { changeKey, filePatch } from '../../shared/patch-selection.ts';
import { editSample, seededRandom } from '../../shared/patch-selection-samples.ts';
import { computeLineDiff } from '../../renderer/src/features/review/diff/line-diff.ts';

/** Changed lines as keys in display order: `-n` old line n deleted, `+n` new line n added. */
function viewerKeys(before: string, after: string): string[] {
  return computeLineDiff(before, after)
    .lines.filter((line) => line.kind !== 'context')
    .map((line) => (line.kind === 'del' ? `-${line.oldNo}` : `+${line.newNo}`));
}

function selectionHunks(before: string, after: string): { headers: string[]; keys: string[] } {
  const { hunks } = filePatch(before, after);
  return {
    headers: hunks.map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`),
    keys: hunks.flatMap((h) => h.lines.map(changeKey).filter((key) => key !== null)),
  };
}

/** The printed patch read back: its hunk headers, and its changed lines numbered from them. */
function printedHunks(before: string, after: string): { headers: string[]; keys: string[] } {
  const headers: string[] = [];
  const keys: string[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const line of unifiedPatch('a/f', 'b/f', before, after).patch.split('\n').slice(2)) {
    const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(line);
    if (header) {
      headers.push(line);
      oldNo = Number(header[2]) === 0 ? Number(header[1]) + 1 : Number(header[1]);
      newNo = Number(header[4]) === 0 ? Number(header[3]) + 1 : Number(header[3]);
    } else if (line.startsWith('-')) keys.push(`-${oldNo++}`);
    else if (line.startsWith('+')) keys.push(`+${newNo++}`);
    else if (line.startsWith(' ')) {
      oldNo++;
      newNo++;
    }
  }
  return { headers, keys };
}

function expectOneDiff(before: string, after: string, label: string): void {
  const selection = selectionHunks(before, after);
  const printed = printedHunks(before, after);
  expect(printed.headers, label).toEqual(selection.headers);
  expect(printed.keys, label).toEqual(selection.keys);
  expect(viewerKeys(before, after), label).toEqual(selection.keys);
  // The review cuts its hunks from the viewer's own changes rather than matching twice: same patch.
  expect(filePatch(before, after, computeLineDiff(before, after).exact ?? undefined), label).toEqual(filePatch(before, after));
}

const LINES = ['', '', '}', '  return x;', 'alpha', 'beta', 'beta', '\tindent', 'import a;', 'gamma'];

/** A text of `count` lines, many repeated, with a mix of LF and CRLF and maybe no last newline. */
function repetitive(random: () => number, count: number): string[] {
  const crlf = random() < 0.3;
  return Array.from({ length: count }, (_, i) => {
    const text = random() < 0.5 ? LINES[Math.floor(random() * LINES.length)] : `line ${Math.floor(random() * count)} of ${i % 5}`;
    return `${text}${crlf && random() < 0.7 ? '\r\n' : '\n'}`;
  });
}

/** `lines` edited: blocks moved far away, lines replaced, inserted, deleted, endings flipped. */
function heavyEdit(random: () => number, lines: string[]): string[] {
  const out = [...lines];
  const edits = 1 + Math.floor(random() * 8);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (out.length + 1));
    const roll = random();
    if (roll < 0.25) {
      const moved = out.splice(at, 1 + Math.floor(random() * 40));
      out.splice(Math.floor(random() * (out.length + 1)), 0, ...moved);
    } else if (roll < 0.5) out.splice(at, 1 + Math.floor(random() * 5), `changed ${e}\n`);
    else if (roll < 0.7) out.splice(at, 0, ...LINES.slice(0, 1 + Math.floor(random() * 4)).map((l) => `${l}\n`));
    else if (roll < 0.85) out.splice(at, 1 + Math.floor(random() * 10));
    else if (at < out.length) out[at] = out[at]!.endsWith('\r\n') ? out[at]!.replace(/\r\n$/, '\n') : out[at]!.replace(/\n$/, '\r\n');
  }
  return out;
}

const text = (lines: string[], noLastNewline: boolean): string => {
  const joined = lines.join('');
  return noLastNewline ? joined.replace(/\r?\n$/, '') : joined;
};

describe('the viewer, patch selection and plans diff', () => {
  it('show the same changed lines in the same hunks for 600 small edits', () => {
    const random = seededRandom(23);
    for (let trial = 0; trial < 600; trial++) {
      const { original, modified } = editSample(random);
      expectOneDiff(original, modified, `small trial ${trial}: ${JSON.stringify([original, modified])}`);
    }
  });

  it('show the same changed lines for 150 larger edits with repeated lines, moves and CRLF', () => {
    const random = seededRandom(2026);
    for (let trial = 0; trial < 150; trial++) {
      const lines = repetitive(random, 20 + Math.floor(random() * 400));
      const before = text(lines, random() < 0.2);
      const after = text(heavyEdit(random, lines), random() < 0.2);
      expectOneDiff(before, after, `large trial ${trial}`);
    }
  });

  it('show the same changed lines past the edit budget, where unique lines anchor the match', () => {
    const random = seededRandom(7);
    const lines = Array.from({ length: 6000 }, (_, i) => (i % 4 === 0 ? `${LINES[i % LINES.length]}\n` : `unique ${i}\n`));
    const after = lines.map((line, i) => (random() < 0.4 ? `rewritten ${i}\n` : line));
    after.splice(100, 0, ...after.splice(4000, 500));
    expectOneDiff(text(lines, false), text(after, true), 'past the budget');
  });
});
