/**
 * The special files (FIFOs, sockets, devices) a tool made in a worktree sandbox. git never lists
 * them: its walk for untracked files passes them by, so without this a FIFO would be invisible in
 * the change list, and `git add` refuses one where a tracked file was. Only names are read (find's
 * type test takes the type from the directory entry); nothing is opened.
 */
import { execFile } from 'node:child_process';
import fsSync, { type Dirent } from 'node:fs';
import { decodeName, encodeName, inRoot } from '../fs/index.ts';
import { git, splitNul } from '../../git/index.ts';

/** find's type letters of special files. */
const SPECIAL_TYPES = ['p', 's', 'b', 'c'];

/** The special files below `root` (its top `.git` left out), by exact relative name. */
export async function findSpecialFiles(root: string): Promise<string[]> {
  // Windows has no FIFOs in its file system, and its sockets are not listed as such.
  if (process.platform === 'win32') return [];
  const types = SPECIAL_TYPES.flatMap((type, i) => [...(i > 0 ? ['-o'] : []), '-type', type]);
  const args = ['.', '-path', './.git', '-prune', '-o', '(', ...types, ')', '-print0'];
  const found = await new Promise<Buffer | null>((resolve) => {
    execFile('find', args, { cwd: root, encoding: 'buffer', maxBuffer: 1 << 28 }, (error, stdout) => {
      // A folder find could not read still leaves what it found elsewhere (git fails on that folder itself).
      if (error && typeof error.code !== 'number') return resolve(null);
      resolve(stdout);
    });
  });
  if (found === null) return walkSpecials(root);
  return splitNul(found).map((name) => decodeName(name.subarray(2)));
}

/**
 * The same by a walk in this process, where find cannot run: directory entries carry their type,
 * so nothing is stat'ed. A name that is not UTF-8 is listed again as bytes (../fs/paths.ts).
 */
export function walkSpecials(root: string): string[] {
  const found: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Array<{ name: string; entry: Dirent }>;
    try {
      entries = namesIn(root, dir);
    } catch {
      // A folder gone or unreadable meanwhile: git reports what it cannot read itself.
      continue;
    }
    for (const { name, entry } of entries) {
      const rel = dir === '' ? name : `${dir}/${name}`;
      if (entry.isDirectory()) {
        if (rel !== '.git') stack.push(rel);
      } else if (!entry.isFile() && !entry.isSymbolicLink()) found.push(rel);
    }
  }
  return found;
}

function namesIn(root: string, dir: string): Array<{ name: string; entry: Dirent }> {
  const at = inRoot(root, dir);
  const plain = fsSync.readdirSync(at, { withFileTypes: true });
  if (!plain.some((entry) => entry.name.includes('\uFFFD'))) return plain.map((entry) => ({ name: entry.name, entry }));
  return fsSync.readdirSync(at, { withFileTypes: true, encoding: 'buffer' }).map((entry) => ({ name: decodeName(entry.name), entry: entry as unknown as Dirent }));
}

/**
 * Which of `rels` (in the work tree `repo`) git ignores: a special file there is no change, as
 * no ignored file is. Paths in the index are never ignored.
 */
export async function ignoredOf(repo: string, rels: readonly string[]): Promise<Set<string>> {
  if (rels.length === 0) return new Set();
  const input = Buffer.concat(rels.flatMap((rel) => [encodeName(rel), Buffer.from([0])]));
  // Exit code 1: none of them is ignored.
  const listed = await git('check-ignore', ['check-ignore', '-z', '--stdin'], { cwd: repo, input, okCodes: [0, 1] });
  return new Set(splitNul(listed.stdout).map(decodeName));
}

/**
 * Drops `rels` from the index `GIT_INDEX_FILE` names (a temporary one): `git add -A` refuses a
 * special file where a tracked file was, and the base's entry then shows as what changed there.
 */
export async function dropFromIndex(repo: string, env: Record<string, string>, rels: readonly string[]): Promise<void> {
  if (rels.length === 0) return;
  const input = Buffer.concat(rels.flatMap((rel) => [encodeName(rel), Buffer.from([0])]));
  await git('update-index (temporary index)', ['update-index', '--force-remove', '-z', '--stdin'], { cwd: repo, env, input });
}
