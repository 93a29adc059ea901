/**
 * The list of crash trials: SIGKILL at every protocol phase (injected points, chosen at random
 * file indexes), at random delays, during recovery, during undo, and while rolling back a drift.
 * Shared by crash.test.ts (a quick sample) and bench/commit-soak.ts (many more).
 */
import { seededRandom } from './crash-scenario.ts';
import type { Kill, TrialSpec } from './crash-trial.ts';
import type { FaultPoint } from '../types.ts';

/** How many times each per-file point is hit in the standard scenario of 1,000 ops (lower bounds). */
const HITS: Partial<Record<FaultPoint, number>> = { backed_up: 700, staged: 850, before_replace: 1000, replaced: 1000 };

/** How many trials of each family to make. */
export interface TrialMix {
  perPoint: number;
  delays: number;
  maxDelayMs: number;
  recoveries: number;
  undos: number;
  drifts: number;
}

/** The mix of the test suite: 55 trials. */
export const SUITE_MIX: TrialMix = { perPoint: 1, delays: 16, maxDelayMs: 2500, recoveries: 7, undos: 5, drifts: 4 };

const COMMIT_POINTS: Array<[FaultPoint, number]> = [
  ['checked', 1],
  ['prepared', 1],
  ['backed_up', 3],
  ['staged', 5],
  ['decided', 1],
  ['before_replace', 4],
  ['replaced', 6],
  ['synced', 1],
  ['finished', 1],
];

/** Builds a reproducible list of trials from `seed`. */
export function crashTrials(seed: number, mix: TrialMix): TrialSpec[] {
  const random = seededRandom(seed);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const at = (point: FaultPoint, upTo = HITS[point] ?? 1): Kill => ({ point, at: between(1, upTo) });
  const trials: TrialSpec[] = [];
  const add = (family: string, spec: Omit<TrialSpec, 'name'>) => trials.push({ name: `${family} #${trials.length} ${describe(spec)}`, ...spec });

  for (const [point, count] of COMMIT_POINTS) {
    for (let i = 0; i < count * mix.perPoint; i++) add('commit', { commit: at(point) });
  }
  for (let i = 0; i < mix.delays; i++) add('delay', { commit: { delayMs: between(0, mix.maxDelayMs) } });
  for (let i = 0; i < mix.recoveries; i++) {
    const forward = i % 3 !== 2;
    const first = forward ? at('replaced', 900) : at('staged', 800);
    const replacedSoFar = first && 'at' in first ? first.at : 0;
    const second: Kill = forward && i % 3 === 0 ? at('replaced', Math.max(1, (1000 - replacedSoFar) / 2)) : at(i % 2 === 0 ? 'synced' : 'finished');
    add('recovery', { commit: first, then: { command: 'recover', kill: second } });
  }
  for (let i = 0; i < mix.undos; i++) {
    const kill: Kill = i % 5 === 3 ? at('synced') : i % 5 === 4 ? { delayMs: between(0, 800) } : at('restored', 900);
    add('undo', { commit: null, then: { command: 'undo', kill } });
  }
  for (let i = 0; i < mix.drifts; i++) {
    const driftAt = between(50, 900);
    const kill: Kill = i % 4 === 3 ? null : i % 4 === 2 ? at('synced') : at('restored', Math.max(1, Math.floor(driftAt / 2)));
    add('drift', { commit: kill, driftAt });
  }
  return trials;
}

function describe(spec: Omit<TrialSpec, 'name'>): string {
  const kill = (k: Kill) => (k === null ? 'no kill' : 'point' in k ? `kill at ${k.point}#${k.at}` : `kill after ${k.delayMs}ms`);
  const parts = [`commit: ${kill(spec.commit)}`];
  if (spec.driftAt) parts.push(`drift at rename #${spec.driftAt}`);
  if (spec.then) parts.push(`${spec.then.command}: ${kill(spec.then.kill)}`);
  return parts.join(', ');
}
