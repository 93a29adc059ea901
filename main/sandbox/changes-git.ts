/**
 * Which paths of a git_worktree sandbox may differ from its base, and what the base had there.
 * Usually one `git status` (the same work `git status --porcelain` does, index refresh included);
 * when a tool moved the sandbox's HEAD, a temporary index compares the whole working state with
 * the base instead.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { decodeName } from './fs-path.ts';
import { git, gitStream, splitNul } from './git.ts';
import type { EntryType, SandboxRecord } from './model.ts';

/** What the base held at a path. */
export interface GitBaseEntry {
  type: EntryType;
  mode: number;
  blob: string;
}

/** Paths that may have changed, with the base entry of each (null when the base had none). */
export type Candidates = Map<string, GitBaseEntry | null>;

const GITLINK = '160000';

/** Lists candidate paths of a worktree sandbox against its base commit. */
export async function gitCandidates(sandbox: SandboxRecord, tempDir: string): Promise<Candidates> {
  const status = await git('status', ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--no-renames'], {
    cwd: sandbox.path,
    optionalLocks: true,
  });
  const records = splitNul(status.stdout);
  const head = records.find((r) => r.toString('latin1').startsWith('# branch.oid '))?.toString('latin1').slice('# branch.oid '.length);
  if (head !== sandbox.baseCommit) return indexCandidates(sandbox, tempDir);
  const candidates: Candidates = new Map();
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const tag = record[0];
    if (tag === 0x3f /* ? */) {
      const rel = decodeName(record.subarray(2));
      if (!candidates.has(rel)) candidates.set(rel, null);
    } else if (tag === 0x31 /* 1 */ || tag === 0x75 /* u */) {
      const fieldCount = tag === 0x31 ? 8 : 10;
      const { fields, rest } = splitFields(record, fieldCount);
      const [modeHead, blobHead] = tag === 0x31 ? [fields[3]!, fields[6]!] : [fields[3]!, fields[7]!];
      if (modeHead === GITLINK) continue;
      candidates.set(decodeName(rest), modeHead === '000000' ? null : baseEntry(modeHead, blobHead));
    } else if (tag === 0x32 /* 2: a staged rename; --no-renames should prevent it */) {
      const { fields, rest } = splitFields(record, 9);
      const original = records[++i];
      candidates.set(decodeName(rest), null);
      if (original && fields[3] !== '000000') candidates.set(decodeName(original), baseEntry(fields[3]!, fields[6]!));
    }
  }
  return candidates;
}

/** Base vs working state through a temporary copy of the sandbox index, for a sandbox whose HEAD moved. */
async function indexCandidates(sandbox: SandboxRecord, tempDir: string): Promise<Candidates> {
  await fs.mkdir(tempDir, { recursive: true });
  const tempIndex = path.join(tempDir, `changes-${ulid()}`);
  const env = { GIT_INDEX_FILE: tempIndex };
  try {
    const indexPath = (await git('rev-parse --git-path', ['rev-parse', '--git-path', 'index'], { cwd: sandbox.path })).stdout.toString('utf8').trim();
    await fs.copyFile(path.resolve(sandbox.path, indexPath), tempIndex).catch(() => undefined);
    await git('add (temporary index)', ['add', '-A', '--', '.'], { cwd: sandbox.path, env });
    const raw = await git('diff-index', ['diff-index', '--cached', '--raw', '-z', '--no-renames', '--no-abbrev', sandbox.baseCommit as string], {
      cwd: sandbox.path,
      env,
    });
    const records = splitNul(raw.stdout);
    const candidates: Candidates = new Map();
    for (let i = 0; i + 1 < records.length; i += 2) {
      const [modeBase, , blobBase] = records[i]!.toString('latin1').slice(1).split(' ');
      if (modeBase === GITLINK) continue;
      candidates.set(decodeName(records[i + 1]!), modeBase === '000000' ? null : baseEntry(modeBase!, blobBase!));
    }
    return candidates;
  } finally {
    await fs.rm(tempIndex, { force: true });
  }
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
