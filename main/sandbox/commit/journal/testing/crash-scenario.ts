/**
 * The scenario of the crash trials (test suite and bench/commit-soak.ts): a target folder and a
 * sandbox whose commit overwrites, creates, deletes, retypes and re-modes ~1,000 files with odd
 * names and removes the two folders it empties, and a checker that the target is wholly old or
 * wholly new afterwards.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { TEMP_PREFIX } from '../journal-file.ts';
import type { Expectation, TransactionOp } from '../types.ts';

/** A path's state in the scenario: what the checker compares against. */
export type ScenarioState =
  | { kind: 'absent' }
  | { kind: 'file'; sha256: string; mode: number; content: string }
  | { kind: 'symlink'; target: string };

/** Everything a trial needs: the ops, the folders the commit removes, and each path's old and new state. */
export interface Scenario {
  ops: TransactionOp[];
  /** Folders whose files the commit all deletes: gone on the new side, there on the old one. */
  removeDirs: string[];
  paths: Array<{ relPath: string; old: ScenarioState; next: ScenarioState }>;
}

/** The folders the scenario's deletions empty (deepest first). */
const EMPTIED_DIRS = ['gone/deep', 'gone'];

export { seededRandom } from '../../../../../shared/seeded-random.ts';

function file(content: string, mode = 0o644): ScenarioState {
  return { kind: 'file', sha256: createHash('sha256').update(content).digest('hex'), mode, content };
}

function oddName(i: number): string {
  if (i % 13 === 0) return `f${i} with space.txt`;
  if (i % 17 === 0) return `-f${i}`;
  if (i % 19 === 0) return `f${i}\nnewline`;
  if (i % 23 === 0) return `fé${i}ü.txt`;
  return `f${i}.txt`;
}

function body(label: string, i: number, large: boolean): string {
  const line = `${label} of file ${i}: the quick brown fox jumps over the lazy dog\n`;
  return line.repeat(large ? 4000 : 1 + (i % 7));
}

/** The states of one path number `i` of `count`, by its role in the commit. */
function pathStates(i: number): { relPath: string; old: ScenarioState; next: ScenarioState; op: 'write' | 'delete' | null } {
  const dir = `d${String(i % 20).padStart(2, '0')}`;
  const name = oddName(i);
  const large = i % 200 === 5;
  const old = file(body('old', i, large));
  const fresh = file(body('new', i, large));
  switch (i % 20) {
    case 12:
    case 13:
      return { relPath: `${dir}/${name}`, old: { kind: 'absent' }, next: fresh, op: 'write' };
    case 14:
      return { relPath: `new-${i % 7}/nested dir/${name}`, old: { kind: 'absent' }, next: fresh, op: 'write' };
    case 15:
    case 16:
      // Every fourth deletion empties a folder the commit then removes.
      return { relPath: `${i % 80 === 15 ? 'gone' : i % 80 === 16 ? 'gone/deep' : dir}/${name}`, old, next: { kind: 'absent' }, op: 'delete' };
    case 17:
      return { relPath: `${dir}/${name}`, old: i % 40 === 17 ? old : { kind: 'symlink', target: `../old-${i}` }, next: { kind: 'symlink', target: `new target ${i}` }, op: 'write' };
    case 18:
      return { relPath: `${dir}/${name}`, old: { kind: 'symlink', target: `old-${i}` }, next: fresh, op: 'write' };
    case 19:
      return { relPath: `${dir}/${name}`, old, next: file(body('old', i, large), 0o600), op: 'write' };
    default:
      return { relPath: `${dir}/${name}`, old, next: i % 50 === 0 ? file(body('new', i, large), 0o755) : fresh, op: 'write' };
  }
}

function expectationOf(i: number, old: ScenarioState): Expectation {
  if (i % 97 === 0) return { kind: 'any' };
  if (old.kind === 'file') return { kind: 'file', sha256: old.sha256 };
  if (old.kind === 'symlink') return { kind: 'symlink', target: old.target };
  return { kind: 'absent' };
}

/**
 * Builds the scenario: writes each path's new version into `sandboxDir` (as `s<i>`) and returns
 * the ops for `opCount` changed paths plus `bystanders` untouched ones.
 */
export function buildScenario(sandboxDir: string, opCount = 1000, bystanders = 50): Scenario {
  fs.mkdirSync(sandboxDir, { recursive: true });
  const scenario: Scenario = { ops: [], removeDirs: EMPTIED_DIRS, paths: [] };
  for (let i = 0; i < opCount; i++) {
    const { relPath, old, next, op } = pathStates(i);
    scenario.paths.push({ relPath, old, next });
    const expect = expectationOf(i, old);
    if (op === 'delete') {
      scenario.ops.push({ relPath, kind: 'delete', expect });
      continue;
    }
    const sourcePath = path.join(sandboxDir, `s${i}`);
    writeState(sourcePath, next);
    scenario.ops.push({ relPath, kind: 'write', sourcePath, expect });
  }
  for (let i = 0; i < bystanders; i++) {
    const state = file(`bystander ${i}\n`);
    scenario.paths.push({ relPath: `d${String(i % 20).padStart(2, '0')}/bystander-${i}`, old: state, next: state });
  }
  return scenario;
}

function writeState(file: string, state: ScenarioState): void {
  if (state.kind === 'symlink') fs.symlinkSync(state.target, file);
  if (state.kind !== 'file') return;
  fs.writeFileSync(file, state.content);
  fs.chmodSync(file, state.mode);
}

/** Writes every path's old version under `targetDir` (a fresh target for one trial). */
export function materializeOld(targetDir: string, scenario: Scenario): void {
  const dirs = new Set<string>();
  for (const { relPath, old } of scenario.paths) if (old.kind !== 'absent') dirs.add(path.dirname(path.join(targetDir, relPath)));
  for (const dir of dirs) fs.mkdirSync(dir, { recursive: true });
  for (const { relPath, old } of scenario.paths) writeState(path.join(targetDir, relPath), old);
}

/** What the checker found: which side the target is on, and every problem (empty when consistent). */
export interface TargetVerdict {
  side: 'old' | 'new' | 'mixed';
  problems: string[];
}

/**
 * Checks the target after recovery: every path wholly old or wholly new, all on the same side, no
 * temp files, no stray files or folders. `overrides` are paths a trial changed on purpose.
 */
export function verifyTarget(targetDir: string, scenario: Scenario, overrides: Map<string, ScenarioState> = new Map()): TargetVerdict {
  const problems: string[] = [];
  let allOld = true;
  let allNew = true;
  for (const { relPath, old, next } of scenario.paths) {
    const actual = readState(path.join(targetDir, relPath));
    const override = overrides.get(relPath);
    if (override) {
      if (!sameScenarioState(actual, override)) problems.push(`${JSON.stringify(relPath)}: the trial's own edit was lost`);
      continue;
    }
    const isOld = sameScenarioState(actual, old);
    const isNew = sameScenarioState(actual, next);
    if (!isOld && !isNew) problems.push(`${JSON.stringify(relPath)} is neither old nor new: ${JSON.stringify(actual).slice(0, 120)}`);
    allOld &&= isOld;
    allNew &&= isNew;
  }
  const side = allNew ? 'new' : allOld ? 'old' : 'mixed';
  if (side === 'mixed') problems.push('some paths are old and others new: the commit was not all-or-nothing');
  const overridden = [...overrides.keys()];
  for (const dir of scenario.removeDirs) {
    const there = fs.existsSync(path.join(targetDir, dir));
    const keptByTrial = overridden.some((relPath) => relPath.startsWith(`${dir}/`));
    if (side === 'new' && there && !keptByTrial) problems.push(`folder ${dir} was emptied by the commit but not removed`);
    if (side === 'old' && !there) problems.push(`folder ${dir} is gone though the commit was undone`);
  }
  const expected = expectedEntries(scenario, side === 'new' ? 'next' : 'old', overrides);
  for (const entry of walk(targetDir)) {
    if (path.basename(entry).startsWith(TEMP_PREFIX)) problems.push(`temp file left: ${JSON.stringify(entry)}`);
    else if (!expected.has(entry)) problems.push(`unexpected entry: ${JSON.stringify(entry)}`);
  }
  return { side, problems };
}

function expectedEntries(scenario: Scenario, side: 'old' | 'next', overrides: Map<string, ScenarioState>): Set<string> {
  const entries = new Set<string>();
  const addParents = (relPath: string) => {
    for (let dir = path.posix.dirname(relPath); dir !== '.'; dir = path.posix.dirname(dir)) entries.add(dir);
  };
  for (const entry of scenario.paths) {
    const state = overrides.get(entry.relPath) ?? entry[side];
    if (state.kind !== 'absent') {
      entries.add(entry.relPath);
      addParents(entry.relPath);
    }
    // A folder the commit did not remove stays after its files are deleted.
    if (entry.old.kind !== 'absent' && !scenario.removeDirs.some((dir) => entry.relPath.startsWith(`${dir}/`))) addParents(entry.relPath);
  }
  return entries;
}

function walk(root: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    found.push(rel);
    if (entry.isDirectory()) found.push(...walk(root, rel));
  }
  return found;
}

/** Reads the state of one path the way the scenario describes states. */
export function readState(file: string): ScenarioState {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return { kind: 'absent' };
  if (stat.isSymbolicLink()) return { kind: 'symlink', target: fs.readlinkSync(file) };
  if (!stat.isFile()) return { kind: 'file', sha256: 'not-a-file', mode: 0, content: '' };
  const bytes = fs.readFileSync(file);
  return { kind: 'file', sha256: createHash('sha256').update(bytes).digest('hex'), mode: stat.mode & 0o7777, content: bytes.toString('utf8') };
}

/** Equal type, bytes, mode and symlink target. */
export function sameScenarioState(a: ScenarioState, b: ScenarioState): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.sha256 === b.sha256 && a.mode === b.mode;
  if (a.kind === 'symlink' && b.kind === 'symlink') return a.target === b.target;
  return a.kind === b.kind;
}
