/**
 * The first, read-only phase of a commit: every op is validated and its path resolved safely
 * (resolveOps), then its source looked at and its target compared with the caller's expectation
 * (inspectOps). Nothing on disk changes here.
 */
import fs from 'node:fs';
import { ConflictError, ValidationError } from '../../../../shared/errors.ts';
import { diskPath, readLinkExact } from './disk-path.ts';
import { checkExpectation, observe, permissionBits, stampOf, stillAsSeen, type Observed, type StatStamp } from './entry-state.ts';
import { forEachLimit } from '../../fs/index.ts';
import { absoluteIn, resolveTarget, type ParentCache, type ResolvedTarget } from './safe-path.ts';
import type { DriftedPath, Expectation, KnownContent, TransactionOp } from './types.ts';

/**
 * Where a write's new content comes from. `known` is the caller's hash of a source file whose stat
 * proved it at check time, with that stat: a copy made while the stat stays the same has that hash.
 */
export type SourceInfo =
  | { kind: 'file'; path: string; mode: number; known: { sha256: string; stamp: StatStamp } | null }
  | { kind: 'symlink'; target: string };

/** An op after the check: where it lands, what is there now, what it writes. */
export interface CheckedOp {
  op: TransactionOp;
  target: ResolvedTarget;
  observed: Observed;
  source: SourceInfo | null;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Refuses an op that is not well formed (a programming error in the caller, not drift). */
export function assertWellFormed(op: TransactionOp, index: number): void {
  const where = `Commit op #${index} (${JSON.stringify(op?.relPath)})`;
  if (!op || typeof op.relPath !== 'string') throw new ValidationError(`${where} has no relPath: give the path relative to the target folder.`);
  if (op.kind !== 'write' && op.kind !== 'delete') throw new ValidationError(`${where} has kind ${JSON.stringify((op as { kind: unknown }).kind)}: use "write" or "delete".`);
  if (op.kind === 'write' && (typeof op.sourcePath !== 'string' || op.sourcePath === '')) {
    throw new ValidationError(`${where} writes but has no sourcePath: give the sandbox file to copy.`);
  }
  if (op.kind === 'write' && op.mode !== undefined && (!Number.isInteger(op.mode) || op.mode < 0 || op.mode > 0o7777)) {
    throw new ValidationError(`${where} has mode ${String(op.mode)}: give permission bits between 0 and 0o7777.`);
  }
  const problem = expectationProblem(op.expect) ?? (op.kind === 'write' ? knownProblem(op.sourceContent, 'its sourceContent') : null);
  if (problem) throw new ValidationError(`${where}: ${problem}`);
}

const SEEN_FIELDS = ['ino', 'size', 'mtimeMs', 'ctimeMs', 'hashedAtMs'] as const;

function knownProblem(known: KnownContent | undefined, what: string): string | null {
  if (known === undefined) return null;
  if (typeof known.sha256 !== 'string' || !SHA256.test(known.sha256)) return `${what} needs sha256 as 64 lower-case hex digits.`;
  if (known.seen === undefined || SEEN_FIELDS.every((field) => Number.isFinite(known.seen![field]))) return null;
  return `${what} has a seen stat without numeric ${SEEN_FIELDS.join(', ')}: pass the fs.Stats fields and Date.now() of the hashing.`;
}

function expectationProblem(expect: Expectation | undefined): string | null {
  switch (expect?.kind) {
    case 'absent':
    case 'any':
      return null;
    case 'file':
      return knownProblem(expect, 'its expectation');
    case 'symlink':
      return typeof expect.target === 'string' ? null : 'its expectation needs the symlink target.';
    default:
      return 'it has no expectation: use { kind: "absent" | "file" | "symlink" | "any" }.';
  }
}

/**
 * Validates every op and resolves where it lands, looking only at folders: throws on a malformed
 * op, an unsafe path or two ops on one file, before anything is written anywhere.
 */
export function resolveOps(rootReal: string, ops: readonly TransactionOp[]): ResolvedTarget[] {
  ops.forEach(assertWellFormed);
  const parents: ParentCache = new Map();
  const targets = ops.map((op) => resolveTarget(rootReal, op.relPath, parents));
  assertDistinct(rootReal, targets, ops);
  return targets;
}

/** Looks at each op's source and target (resolved by resolveOps) and compares the target with its expectation. */
export async function inspectOps(
  ops: readonly TransactionOp[],
  targets: readonly ResolvedTarget[],
  concurrency: number,
): Promise<{ checked: CheckedOp[]; drifted: DriftedPath[] }> {
  const checked: CheckedOp[] = new Array(ops.length);
  const reasons: Array<string | null> = new Array(ops.length).fill(null);
  await forEachLimit(ops, concurrency, async (op, i) => {
    const target = targets[i]!;
    const source = op.kind === 'write' ? inspectSource(op.relPath, op.sourcePath, op.mode, op.sourceContent) : null;
    const observed = await observe(target.path, op.expect.kind === 'file' ? op.expect : undefined);
    checked[i] = { op, target, observed, source };
    reasons[i] =
      target.blockedBy !== null && op.kind === 'write'
        ? `its parent ${target.blockedBy} is a file, not a folder: commit the removal of that file first.`
        : checkExpectation(observed.state, op.expect);
  });
  const drifted = ops.flatMap((op, i) => (reasons[i] ? [{ relPath: op.relPath, reason: reasons[i]! }] : []));
  return { checked, drifted };
}

function assertDistinct(rootReal: string, targets: readonly ResolvedTarget[], ops: readonly TransactionOp[]): void {
  const seen = new Map<string, string>();
  const created = new Map<string, string>();
  targets.forEach((target, i) => {
    if (ops[i]!.kind === 'write') for (const dir of target.missingDirs) created.set(absoluteIn(rootReal, dir), target.relPath);
  });
  for (const target of targets) {
    const earlier = seen.get(target.path);
    if (earlier !== undefined) {
      throw new ValidationError(
        `Paths ${JSON.stringify(earlier)} and ${JSON.stringify(target.relPath)} name the same file: give each file one op.`,
        { relPaths: [earlier, target.relPath] },
      );
    }
    const under = created.get(target.path);
    if (under !== undefined) {
      throw new ValidationError(
        `${JSON.stringify(target.relPath)} would be a file and also the folder of ${JSON.stringify(under)}: ` +
          'commit the file and the folder in separate commits.',
        { relPaths: [target.relPath, under] },
      );
    }
    seen.set(target.path, target.relPath);
  }
}

function inspectSource(relPath: string, sourcePath: string, mode: number | undefined, content: KnownContent | undefined): SourceInfo {
  let stat;
  try {
    stat = fs.lstatSync(diskPath(sourcePath), { bigint: true });
  } catch {
    throw new ValidationError(`The new version of ${relPath} (${sourcePath}) does not exist: refresh the change list and retry.`, {
      relPath,
      sourcePath,
    });
  }
  // A reviewed file that is a symlink now is not what the person saw.
  if (stat.isSymbolicLink() && content) throw sourceChanged([relPath]);
  if (stat.isSymbolicLink()) return { kind: 'symlink', target: readLinkExact(sourcePath) };
  if (stat.isFile()) {
    const stamp = stampOf(stat);
    const known = content?.seen && stillAsSeen(stamp, content.seen) ? { sha256: content.sha256, stamp } : null;
    return { kind: 'file', path: sourcePath, mode: mode ?? permissionBits(Number(stat.mode)), known };
  }
  throw new ValidationError(`The new version of ${relPath} (${sourcePath}) is not a file or symlink: only those can be committed.`, {
    relPath,
    sourcePath,
  });
}

/**
 * The refusal of a commit whose new versions are not the content the caller reviewed (`sourceContent`):
 * the sandbox changed after the change list was made. Nothing is written.
 */
export function sourceChanged(relPaths: readonly string[]): ConflictError {
  const named = relPaths.slice(0, 10).join(', ') + (relPaths.length > 10 ? ` and ${relPaths.length - 10} more` : '');
  return new ConflictError(`${named} changed in the sandbox while committing: review ${relPaths.length > 1 ? 'them' : 'it'} again, then commit. Nothing was written.`, {
    paths: relPaths.map((relPath) => ({ relPath, reason: 'changed in the sandbox after it was reviewed' })),
  });
}
