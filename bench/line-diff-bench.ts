/**
 * The three users of the shared line matching on large files: the viewer's line diff, the hunks
 * a partial commit selects from and the unified patch `plans diff` prints. Median of a few runs.
 */
import { filePatch } from '../shared/patch-selection.ts';
import { seededRandom } from '../shared/patch-selection-samples.ts';
import { unifiedPatch } from '../main/sandbox/changes/patch.ts';
import { computeLineDiff } from '../renderer/src/features/review/diff/line-diff.ts';

const source = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => (i % 7 === 0 ? '' : i % 11 === 0 ? '  }' : `  const value${i} = compute(${i % 97});`));

/** `lines` with a `share` of them replaced at random. */
function changed(lines: string[], share: number, seed: number): string[] {
  const random = seededRandom(seed);
  return lines.map((line, i) => (random() < share ? `  const other${i} = ${Math.floor(random() * 1e6)};` : line));
}

const text = (lines: string[]): string => `${lines.join('\n')}\n`;
const ten = source(10_000);
const big = source(25_000);
const formatted = source(3_900);
const cases: Array<[string, string, string]> = [
  ['10,000 lines, 30% changed', text(ten), text(changed(ten, 0.3, 1))],
  ['25,000 lines, 30% changed', text(big), text(changed(big, 0.3, 2))],
  ['25,000 lines, 20 lines changed', text(big), text(changed(big, 20 / 25_000, 3))],
  ['3,900 lines reformatted', text(formatted), text(formatted.map((line) => line.replace(/^ {2}/, '\t')))],
];

/** Runs per figure: `--runs=1` for a quick look (jsdiff took seconds per run on these). */
const RUNS = Number(process.argv.find((arg) => arg.startsWith('--runs='))?.slice(7) ?? 5);

function median(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times.sort((x, y) => x - y)[Math.floor(RUNS / 2)]!;
}

for (const [name, before, after] of cases) {
  const viewer = median(() => computeLineDiff(before, after));
  const selection = median(() => filePatch(before, after));
  const printed = median(() => unifiedPatch('a/f', 'b/f', before, after));
  console.log(`${name.padEnd(32)} viewer ${viewer.toFixed(1).padStart(8)} ms  selection ${selection.toFixed(1).padStart(8)} ms  plans diff ${printed.toFixed(1).padStart(8)} ms`);
}
