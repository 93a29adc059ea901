/**
 * The objects Bindery adds to a user's repository (a snapshot commit of a dirty working state, its
 * trees and blobs). git writes them into a temporary object folder Bindery owns, reading the
 * repository's own objects through alternates, so a git that fails mid-way (a full disk) leaves its
 * `tmp_obj_*` files there, not in the user's `.git`. The new objects are then copied in durably,
 * since a worktree and a private ref must name objects the user's own git can read, and noted in a
 * ledger per repository in the data folder. When Bindery's last ref in that repository goes, the
 * noted objects that nothing of the user's reaches are deleted again, and nothing else.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { git, gitText, isObjectId } from '../../git/index.ts';
import { withLocks } from '../commit/index.ts';

/** A temporary object folder for git to write into: the environment that aims git at it. */
export interface ObjectStaging {
  repo: string;
  dir: string;
  /** The repository's own objects folder (absolute). */
  objects: string;
  env: Record<string, string>;
  /** The user's ref tips before anything was written (see LedgerRecord.tips), taken only when the ledger is empty. */
  tips: string[] | null;
}

/** One line of a repository's ledger: the objects one snapshot (or restore) copied in, and when. */
interface LedgerRecord {
  /** Time (ms) after the copies were made: an object modified later was wanted by git again (it freshens what it would write). */
  at: number;
  ids: string[];
  /** The user's ref tips and HEAD before the first noted object was written: nothing reachable from them can be Bindery's. */
  tips?: string[];
}

const LOOSE = /^[0-9a-f]{38}([0-9a-f]{24})?$/;

/** The ledger folder beside the data directory's temp folder. */
function ledgerDir(tempDir: string): string {
  return path.join(path.dirname(tempDir), 'git-objects');
}

function ledgerFile(tempDir: string, objects: string): string {
  return path.join(ledgerDir(tempDir), `${createHash('sha256').update(objects).digest('hex').slice(0, 32)}.jsonl`);
}

/** The repository's objects folder, symlinks resolved (the ledger's key). */
async function objectsOf(repo: string): Promise<string> {
  const objects = path.resolve(repo, await gitText('rev-parse --git-path objects', ['rev-parse', '--git-path', 'objects'], { cwd: repo }));
  return fs.realpath(objects);
}

/** A path for GIT_ALTERNATE_OBJECT_DIRECTORIES, C-quoted when it holds the separator or a quote (git reads that form). */
function alternate(dir: string): string {
  if (!dir.includes(path.delimiter) && !dir.startsWith('"')) return dir;
  return `"${dir.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Makes a temporary object folder under `tempDir` for git working on `repo`. */
export async function stageObjects(repo: string, tempDir: string): Promise<ObjectStaging> {
  const objects = await objectsOf(repo);
  await fs.mkdir(tempDir, { recursive: true });
  const dir = await fs.mkdtemp(path.join(tempDir, 'objects-'));
  const ledgerEmpty = !(await fs.stat(ledgerFile(tempDir, objects)).then((s) => s.size > 0, () => false));
  const tips = ledgerEmpty ? await userTips(repo) : null;
  return { repo, dir, objects, env: { GIT_OBJECT_DIRECTORY: dir, GIT_ALTERNATE_OBJECT_DIRECTORIES: alternate(objects) }, tips };
}

/** Removes a staging folder (what git left there, finished or not). */
export async function dropStaging(staging: ObjectStaging): Promise<void> {
  await fs.rm(staging.dir, { recursive: true, force: true });
}

/** The commits the user's refs and HEAD name, Bindery's own refs left out. */
async function userTips(repo: string): Promise<string[]> {
  const refs = await git('for-each-ref', ['for-each-ref', '--format=%(objectname) %(refname)'], { cwd: repo });
  const tips = refs.stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line && !line.includes(' refs/bindery/'))
    .map((line) => line.slice(0, line.indexOf(' ')));
  const head = await git('rev-parse HEAD', ['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: repo, okCodes: [0, 1, 128] });
  const id = head.stdout.toString('utf8').trim();
  return [...new Set([...tips, ...(isObjectId(id) ? [id] : [])])];
}

/**
 * Copies the loose objects git wrote into the staging folder into the repository, durably and each
 * through a temporary file of its own that a failure removes, after noting them in the ledger.
 * Packs git streamed big files into are loosened first. Objects of `commit` that Bindery added
 * before (git freshened them instead of writing them) are noted again with this time. Returns
 * the ids copied.
 */
export async function adoptObjects(staging: ObjectStaging, tempDir: string, commit: string): Promise<string[]> {
  await loosenPacks(staging);
  const ids = await looseIds(staging.dir);
  const file = ledgerFile(tempDir, staging.objects);
  const noted = await notedIds(file);
  const reused = noted.size > 0 ? (await snapshotDelta(staging, commit)).filter((id) => noted.has(id)) : [];
  if (ids.length === 0 && reused.length === 0) return [];
  await fs.mkdir(path.dirname(file), { recursive: true });
  // Noted first: a crash after a copy must not leave an object Bindery added that it does not know of.
  if (ids.length > 0) await appendDurably(file, { at: Date.now() + 60_000, ids, ...(staging.tips ? { tips: staging.tips } : {}) });
  for (const id of ids) await copyObject(staging, id);
  // The time that counts is after the copies (a later line for the same ids wins).
  await appendDurably(file, { at: Date.now(), ids: [...ids, ...reused] });
  return ids;
}

async function notedIds(file: string): Promise<Set<string>> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return new Set(text.split('\n').flatMap((line) => parse(line)?.ids ?? []));
}

/** The objects a commit adds over its parents. */
async function snapshotDelta(staging: ObjectStaging, commit: string): Promise<string[]> {
  const listed = await git('rev-list (snapshot)', ['rev-list', '--objects', '--no-object-names', `${commit}^!`], { cwd: staging.repo, env: staging.env });
  return listed.stdout.toString('utf8').split('\n').filter(Boolean);
}

/** Unpacks what git packed in the staging folder (a big file's blob) into loose objects there. */
async function loosenPacks(staging: ObjectStaging): Promise<void> {
  const packDir = path.join(staging.dir, 'pack');
  const names = (await fs.readdir(packDir).catch(() => [] as string[])).filter((name) => name.endsWith('.pack'));
  const packs = await Promise.all(names.map((name) => fs.readFile(path.join(packDir, name))));
  // Gone before unpacking, or git would find the objects there and write none.
  await fs.rm(packDir, { recursive: true, force: true });
  for (const data of packs) await git('unpack-objects', ['unpack-objects', '-q'], { cwd: staging.repo, input: data, env: staging.env });
}

async function looseIds(dir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const fan of await fs.readdir(dir)) {
    if (!/^[0-9a-f]{2}$/.test(fan)) continue;
    for (const name of await fs.readdir(path.join(dir, fan))) if (LOOSE.test(name)) ids.push(fan + name);
  }
  return ids;
}

async function copyObject(staging: ObjectStaging, id: string): Promise<void> {
  const fanDir = path.join(staging.objects, id.slice(0, 2));
  const target = path.join(fanDir, id.slice(2));
  if (await fs.lstat(target).then(() => true, () => false)) return;
  const made = await fs.mkdir(fanDir).then(() => true, (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
    return false;
  });
  // git's own prefix: should a crash leave one, git's prune removes it as it does its own.
  const temp = path.join(fanDir, `tmp_obj_bindery_${randomBytes(6).toString('hex')}`);
  try {
    const data = await fs.readFile(path.join(staging.dir, id.slice(0, 2), id.slice(2)));
    const handle = await fs.open(temp, 'wx', 0o444);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.link(temp, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  } finally {
    await fs.rm(temp, { force: true });
  }
  await syncDir(fanDir);
  if (made) await syncDir(staging.objects);
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r').catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

async function appendDurably(file: string, record: LedgerRecord): Promise<void> {
  const handle = await fs.open(file, 'a');
  try {
    await handle.appendFile(`${JSON.stringify(record)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Runs `work` holding the lock of what Bindery adds to `repo`'s objects, across the processes that
 * share the data directory (`tempDir`'s parent): a prune waits while a restore or snapshot holds
 * objects it added that no ref of its own holds yet.
 */
export async function withObjectsLock<T>(repo: string, tempDir: string, work: () => Promise<T>): Promise<T> {
  const objects = await objectsOf(repo).catch(() => null);
  // No repository there: nothing of it to prune, and `work` says what is wrong.
  if (!objects) return work();
  return withLocks(path.join(path.dirname(tempDir), 'locks'), [{ key: `${objects}#bindery-objects`, label: `adding objects to ${repo}` }], work);
}

/**
 * Deletes the objects Bindery added to `repo` once it holds no Bindery ref or worktree any more:
 * each noted object that nothing of the user's reaches (refs, HEADs, reflogs, indexes, the states
 * of a merge or rebase) and that git did not want again since (a freshened object). Cheap when the
 * ledger is empty. Returns the ids deleted.
 */
export async function pruneAddedObjects(repo: string, tempDir: string): Promise<string[]> {
  const objects = await objectsOf(repo).catch(() => null);
  if (!objects) return [];
  const file = ledgerFile(tempDir, objects);
  const leftovers = (await fs.readdir(ledgerDir(tempDir)).catch(() => [] as string[])).filter((name) => name.startsWith(`${path.basename(file)}.pruning-`));
  if (leftovers.length === 0 && !(await fs.lstat(file).then(() => true, () => false))) return [];
  return withObjectsLock(repo, tempDir, () => pruneLocked(repo, tempDir, objects, file));
}

async function pruneLocked(repo: string, tempDir: string, objects: string, file: string): Promise<string[]> {
  const leftovers = (await fs.readdir(ledgerDir(tempDir)).catch(() => [] as string[])).filter((name) => name.startsWith(`${path.basename(file)}.pruning-`));
  if (await binderyStillThere(repo)) return [];
  // Set aside, so a snapshot noting objects meanwhile starts a ledger of its own.
  const taken = `${file}.pruning-${process.pid}-${randomBytes(4).toString('hex')}`;
  await fs.rename(file, taken).catch(() => undefined);
  const files = [...leftovers.map((name) => path.join(ledgerDir(tempDir), name)), ...((await fs.lstat(taken).then(() => true, () => false)) ? [taken] : [])];
  const latest = new Map<string, number>();
  let tips: string[] = [];
  for (const name of files) {
    for (const line of (await fs.readFile(name, 'utf8')).split('\n')) {
      const record = parse(line);
      if (!record) continue;
      // A later line for the same ids wins (adoptObjects notes them again once copied).
      for (const id of record.ids) latest.set(id, record.at);
      if (record.tips && tips.length === 0) tips = record.tips;
    }
  }
  const reachable = await reachableSince(repo, tips);
  const pruned: string[] = [];
  for (const [id, at] of latest) {
    if (reachable.has(id)) continue;
    const object = path.join(objects, id.slice(0, 2), id.slice(2));
    const stat = await fs.lstat(object).catch(() => null);
    if (!stat || stat.mtimeMs > at) continue;
    await fs.rm(object, { force: true });
    pruned.push(id);
  }
  for (const name of files) await fs.rm(name, { force: true });
  return pruned;
}

function parse(line: string): LedgerRecord | null {
  try {
    const record = JSON.parse(line) as LedgerRecord;
    return Array.isArray(record.ids) && typeof record.at === 'number' ? { ...record, ids: record.ids.filter((id) => isObjectId(id)) } : null;
  } catch {
    return null;
  }
}

/** True while the repository has a Bindery ref or a Bindery worktree (one whose discard did not finish). */
async function binderyStillThere(repo: string): Promise<boolean> {
  const refs = await gitText('for-each-ref (bindery)', ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/bindery/'], { cwd: repo });
  if (refs !== '') return true;
  const worktrees = await gitText('worktree list', ['worktree', 'list', '--porcelain'], { cwd: repo });
  return /^locked Bindery sandbox/m.test(worktrees);
}

/** Every object the user's refs, HEADs, reflogs and indexes reach, past what `tips` reach (which holds nothing of Bindery's). */
async function reachableSince(repo: string, tips: string[]): Promise<Set<string>> {
  const states = ['ORIG_HEAD', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'REBASE_HEAD', 'AUTO_MERGE'];
  const listed = await git('rev-list (reachable)', ['rev-list', '--objects', '--no-object-names', '--all', '--reflog', '--indexed-objects', '--ignore-missing', '--stdin', ...states], {
    cwd: repo,
    input: tips.map((tip) => `^${tip}\n`).join(''),
  });
  return new Set(listed.stdout.toString('utf8').split('\n').filter(Boolean));
}

/** Packs the objects a Bindery snapshot commit added over its parents, for a trash entry to keep; null when `commit` is not Bindery's. */
export async function packSnapshot(repo: string, commit: string): Promise<Buffer | null> {
  const body = await git('cat-file commit', ['cat-file', 'commit', commit], { cwd: repo, okCodes: [0, 128] });
  if (body.code !== 0 || !/^committer Bindery <bindery@localhost> /m.test(body.stdout.toString('utf8'))) return null;
  const parents = (await gitText('rev-parse parents', ['rev-parse', `${commit}^@`], { cwd: repo })).split('\n').filter(Boolean);
  const input = [commit, ...parents.map((parent) => `^${parent}`)].join('\n') + '\n';
  return (await git('pack-objects', ['pack-objects', '--revs', '--stdout', '-q'], { cwd: repo, input })).stdout;
}

/** Puts back into `repo` the objects of a pack packSnapshot made, through a staging folder like a snapshot's. */
export async function unpackSnapshot(repo: string, pack: Buffer, commit: string, tempDir: string): Promise<void> {
  const staging = await stageObjects(repo, tempDir);
  try {
    await git('unpack-objects', ['unpack-objects', '-q'], { cwd: repo, input: pack, env: staging.env });
    await adoptObjects(staging, tempDir, commit);
  } finally {
    await dropStaging(staging);
  }
}
