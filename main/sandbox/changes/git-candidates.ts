/**
 * Which paths of a git_worktree sandbox may differ from its base, and what the base had there.
 * Usually one `git status` (the same work `git status --porcelain` does, index refresh included);
 * when a tool moved the sandbox's HEAD, a temporary index compares the whole working state with
 * the base instead.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { decodeName } from '../fs/index.ts';
import { git, gitStream, splitNul } from '../../git/index.ts';
import type { EntryType, SandboxInfo } from '../../../shared/dto.ts';
import { dropFromIndex, findSpecialFiles, ignoredOf } from './special-scan.ts';
import { walkSync } from '../fs/index.ts';

/** What the base held at a path. */
export interface GitBaseEntry {
  type: EntryType;
  mode: number;
  blob: string;
}

/** Paths that may have changed, with the base entry of each (null when the base had none). */
export type Candidates = Map<string, GitBaseEntry | null>;

const GITLINK = '160000';

/**
 * Lists candidate paths of a worktree sandbox against its base commit, with the special files
 * (FIFOs, sockets) git does not list, found while git works: the change list reports them as
 * changes that cannot be committed, where git would show a tracked file replaced by one as
 * modified and a new one not at all.
 */
export async function gitCandidates(sandbox: SandboxInfo, tempDir: string): Promise<Candidates> {
  const [status, specials] = await Promise.all([
    git('status', ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--no-renames'], { cwd: sandbox.path, optionalLocks: true }),
    findSpecialFiles(sandbox.path),
  ]);
  const records = splitNul(status.stdout);
  const head = records.find((r) => r.toString('latin1').startsWith('# branch.oid '))?.toString('latin1').slice('# branch.oid '.length);
  // A repository a tool made inside the sandbox (a clone, an init) is listed as its folder alone: its files are the changes.
  const nested = records.filter((r) => r[0] === 0x3f /* ? */ && r.at(-1) === 0x2f /* / */).map((r) => decodeName(r.subarray(2, -1)));
  const candidates = head === sandbox.baseCommit ? statusCandidates(sandbox, records) : await indexCandidates(sandbox, tempDir, nested, specials);
  for (const dir of nested) for (const file of filesUnder(sandbox.path, dir)) candidates.set(file, null);
  // Those git listed carry the base's entry; the others were not in the base, unless ignored (as any ignored file, no change).
  const unlisted = specials.filter((rel) => !candidates.has(rel));
  const ignored = await ignoredOf(sandbox.path, unlisted);
  for (const rel of unlisted) if (!ignored.has(rel)) candidates.set(rel, null);
  return candidates;
}

/** The candidates `git status` lists in a sandbox whose HEAD is still the base. */
function statusCandidates(sandbox: SandboxInfo, records: Buffer[]): Candidates {
  const candidates: Candidates = new Map();
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const tag = record[0];
    if (tag === 0x3f /* ? */) {
      const rel = decodeName(record.subarray(2));
      if (record.at(-1) !== 0x2f && !candidates.has(rel)) candidates.set(rel, null);
    } else if (tag === 0x31 /* 1 */ || tag === 0x75 /* u */) {
      const fieldCount = tag === 0x31 ? 8 : 10;
      const { fields, rest } = splitFields(record, fieldCount);
      const [modeHead, modeWorktree, blobHead] = tag === 0x31 ? [fields[3]!, fields[5]!, fields[6]!] : [fields[3]!, fields[6]!, fields[7]!];
      if (modeHead === GITLINK) continue;
      const rel = decodeName(rest);
      // A repository inside the sandbox that the tool staged (`git add vendor/lib`) is a gitlink in its index.
      if (modeWorktree === GITLINK) for (const file of filesUnder(sandbox.path, rel)) candidates.set(file, null);
      candidates.set(rel, modeHead === '000000' ? null : baseEntry(modeHead, blobHead));
    } else if (tag === 0x32 /* 2: a staged rename; --no-renames should prevent it */) {
      const { fields, rest } = splitFields(record, 9);
      const original = records[++i];
      candidates.set(decodeName(rest), null);
      if (original && fields[3] !== '000000') candidates.set(decodeName(original), baseEntry(fields[3]!, fields[6]!));
    }
  }
  return candidates;
}

/**
 * Base vs working state through a temporary copy of the sandbox index, for a sandbox whose HEAD
 * moved. The repositories `nested` in the sandbox are left out of it (`add` refuses one without a
 * commit); the caller lists their files. So are the `specials` (`add` refuses those too).
 */
async function indexCandidates(sandbox: SandboxInfo, tempDir: string, nested: readonly string[], specials: readonly string[]): Promise<Candidates> {
  await fs.mkdir(tempDir, { recursive: true });
  const tempIndex = path.join(tempDir, `changes-${ulid()}`);
  const env = { GIT_INDEX_FILE: tempIndex };
  try {
    const indexPath = (await git('rev-parse --git-path', ['rev-parse', '--git-path', 'index'], { cwd: sandbox.path })).stdout.toString('utf8').trim();
    await copyIndex(path.resolve(sandbox.path, indexPath), tempIndex);
    // Out of the index, a special file is passed by as untracked: where the base had a file, its entry shows as what changed.
    await dropFromIndex(sandbox.path, env, specials);
    const pathspec = ['.', ...nested.map((dir) => `:(exclude,literal)${dir}`)];
    // No split index: it would leave a shared index file in the repository for the temporary one.
    await git('add (temporary index)', ['-c', 'core.splitIndex=false', 'add', '-A', '--', ...pathspec], { cwd: sandbox.path, env });
    const raw = await git('diff-index', ['diff-index', '--cached', '--raw', '-z', '--no-renames', '--no-abbrev', sandbox.baseCommit as string], {
      cwd: sandbox.path,
      env,
    });
    const records = splitNul(raw.stdout);
    const candidates: Candidates = new Map();
    for (let i = 0; i + 1 < records.length; i += 2) {
      const [modeBase, modeNow, blobBase] = records[i]!.toString('latin1').slice(1).split(' ');
      if (modeBase === GITLINK) continue;
      const rel = decodeName(records[i + 1]!);
      // `add -A` records a repository made inside the sandbox as a gitlink: its files are the changes.
      if (modeNow === GITLINK) for (const file of filesUnder(sandbox.path, rel)) candidates.set(file, null);
      candidates.set(rel, modeBase === '000000' ? null : baseEntry(modeBase!, blobBase!));
    }
    return candidates;
  } finally {
    await fs.rm(tempIndex, { force: true });
  }
}

/** Paths per git call: well under any command line's limit. */
const PATHS_PER_CALL = 500;

/**
 * Which of `rels` (files in the work tree `repo`) git finds unchanged since `commit`, through its
 * filters: where git converts line endings or filters files on checkout, a file's bytes differ
 * from its blob though nobody changed it. Read-only: optional locks stay off.
 */
export async function unchangedThroughFilters(repo: string, commit: string, rels: readonly string[]): Promise<Set<string>> {
  const changed = new Set<string>();
  for (let from = 0; from < rels.length; from += PATHS_PER_CALL) {
    const pathspecs = rels.slice(from, from + PATHS_PER_CALL).map((rel) => `:(literal)${rel}`);
    const listed = await git('diff (through filters)', ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', commit, '--', ...pathspecs], { cwd: repo });
    for (const name of splitNul(listed.stdout)) changed.add(decodeName(name));
  }
  return new Set(rels.filter((rel) => !changed.has(rel)));
}

/**
 * The contents of base blobs up to `limit` bytes each, by id, from one `git cat-file --batch`:
 * bigger blobs stream past without being held.
 */
export async function readBlobs(cwd: string, ids: string[], limit: number): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return blobs;
  await gitStream('cat-file --batch', ['cat-file', '--batch'], { cwd, input: `${unique.join('\n')}\n` }, batchReader(limit, blobs));
  return blobs;
}

/**
 * Parses `cat-file --batch` output chunk by chunk: a header `<id> <type> <size>` (or `<id> missing`)
 * and, after it, the object's bytes and a newline. Blobs up to `limit` bytes go into `blobs`.
 */
function batchReader(limit: number, blobs: Map<string, Buffer>): (chunk: Buffer) => void {
  let header: Buffer[] = [];
  let body: { id: string; parts: Buffer[] | null; left: number } | null = null;
  return (chunk) => {
    let at = 0;
    while (at < chunk.length) {
      if (body) {
        const take = Math.min(body.left, chunk.length - at);
        body.parts?.push(chunk.subarray(at, at + take));
        body.left -= take;
        at += take;
        // The object is done with its trailing newline (counted in `left`, dropped from the content).
        if (body.left === 0 && body.parts) blobs.set(body.id, Buffer.concat(body.parts).subarray(0, -1));
        if (body.left === 0) body = null;
        continue;
      }
      const lineEnd = chunk.indexOf(0x0a, at);
      header.push(chunk.subarray(at, lineEnd === -1 ? chunk.length : lineEnd));
      if (lineEnd === -1) return;
      at = lineEnd + 1;
      const [id, type, size] = Buffer.concat(header).toString('latin1').split(' ');
      header = [];
      if (size === undefined) continue;
      const bytes = Number(size);
      body = { id: id!, parts: type === 'blob' && bytes <= limit ? [] : null, left: bytes + 1 };
    }
  };
}

/**
 * Copies an index to a temporary one with its times: git compares by content the entries changed
 * in the same second as the index was written ("racily clean"), which it tells by the index's
 * mtime. A copy stamped now would make them look clean. No index (a fresh worktree) is no copy.
 */
async function copyIndex(index: string, copy: string): Promise<void> {
  const stat = await fs.stat(index).catch(() => null);
  if (!stat) return;
  await fs.copyFile(index, copy);
  await fs.utimes(copy, stat.atime, stat.mtime);
}

/** The files and symlinks below `dir`, a repository inside the sandbox (its own `.git` included: it is part of what the tool made). */
function filesUnder(root: string, dir: string): string[] {
  const files: string[] = [];
  const onTheWay = (rel: string): boolean => rel === dir || rel.startsWith(`${dir}/`) || dir.startsWith(`${rel}/`);
  walkSync(
    root,
    (rel) => {
      if (rel.startsWith(`${dir}/`)) files.push(rel);
    },
    { skip: (rel) => !onTheWay(rel) },
  );
  return files;
}

function baseEntry(mode: string, blob: string): GitBaseEntry {
  const numeric = parseInt(mode, 8);
  return { type: mode === '120000' ? 'symlink' : 'file', mode: numeric & 0o7777, blob };
}

/** Splits the first `count` space-separated fields off a record; the rest is the path (which may hold spaces). */
function splitFields(record: Buffer, count: number): { fields: string[]; rest: Buffer } {
  const fields: string[] = [];
  let start = 0;
  for (let k = 0; k < count; k++) {
    const space = record.indexOf(0x20, start);
    fields.push(record.toString('latin1', start, space));
    start = space + 1;
  }
  return { fields, rest: record.subarray(start) };
}
