/**
 * Which paths of a copied sandbox may differ from its base: the entries of the sandbox (all, or
 * only those changed since provisioning where the ctime can tell) compared with the manifest
 * (size, mtime, mode, type, symlink target), content only for racy entries (which stop being
 * racy once verified). `.git` at the top is left out: committing a copied repository's git
 * internals back would corrupt the original's.
 */
import fsSync from 'node:fs';
import { BinderyError } from '../../../shared/errors.ts';
import { sha256RegularSync, type DiskEntry } from './content.ts';
import { decodeName, inRoot } from '../fs/index.ts';
import { metaDir } from '../provision/index.ts';
import { manifestFile, RACY_WINDOW_MS, readManifest, sameInstant, type Manifest, type ManifestEntry } from './manifest.ts';
import type { SandboxInfo } from '../../../shared/dto.ts';
import { scanChangedSince, scanTree, type ScanEntry, type ScanOptions } from '../fs/index.ts';

/** Paths that may have changed, with the manifest entry of each (null when the base had none). */
export type CopyCandidates = Map<string, ManifestEntry | null>;

/** True for paths change detection and commits never look at. */
export function isExcluded(rel: string): boolean {
  return rel === '.git' || rel.startsWith('.git/');
}

/**
 * How far before the baseline changes are looked for. The baseline is a file's mtime, stamped by
 * the same kernel clock as every later write, so a write after it carries the same time or a
 * later one: a hair of margin suffices, as long as the copy's own files (stamped before it) stay
 * out. Where the filesystem keeps whole seconds (its times have no fraction) a later write can
 * carry the baseline's second or, on FAT, the one before: two seconds then.
 */
export function baselineMargin(baselineMs: number): number {
  return baselineMs % 1000 === 0 ? 2000 : 2;
}

/**
 * Lists candidate paths of a copied sandbox against its manifest. With GNU find and a recorded
 * baseline, only entries whose ctime is newer are looked at (plus folders whose entries changed,
 * for deletions); otherwise the whole tree is scanned.
 */
export async function copyCandidates(sandbox: SandboxInfo, options: Pick<ScanOptions, 'portable'> = {}): Promise<CopyCandidates> {
  const manifest = trustedManifest(sandbox);
  // Only the sealed manifest's own record counts: a marker file's mtime is anyone's to touch.
  const recorded = options.portable ? null : manifest.baselineMs;
  // A clock set back since the baseline would hide later writes from the ctime test: look at everything then.
  const baseline = recorded !== null && Date.now() >= recorded ? recorded : null;
  const since = baseline === null ? null : baseline - baselineMargin(baseline);
  const changed = since === null ? null : await scanChangedSince(sandbox.path, since, { skipTopGit: true, expected: manifest.size, weigh: (name) => manifest.countUnder(name) }).catch(unlistable(sandbox));
  const entries = changed ?? (await scanTree(sandbox.path, { skipTopGit: true, portable: options.portable }).catch(unlistable(sandbox)));
  const compare = new Comparison(sandbox, manifest, changed ? baseline : null);
  for (const now of entries) compare.entry(now);
  if (changed && since !== null) {
    // Only folders whose entries changed can have lost files: their ctime moved. The root is not listed by find.
    const dirs = changed.filter((e) => e.kind === 'dir').map((e) => e.rel);
    if (fsSync.statSync(sandbox.path).ctimeMs > since) dirs.push('');
    for (const dir of dirs) for (const i of manifest.lostUnder(dir, namesOf(sandbox.path, dir))) compare.lost(i);
    // A folder replaced by a file or link lost all it held, though its parent still has the name.
    const none = new Set<string>();
    for (const entry of changed) if (entry.kind !== 'dir') for (const i of manifest.lostUnder(entry.rel, none)) compare.lost(i);
  } else {
    for (let i = 0; i < manifest.size; i++) if (!compare.seen[i]) compare.lost(i);
  }
  if (compare.verified) manifest.saveSync();
  return compare.candidates;
}

/**
 * The base manifest of a copied sandbox, verified by its seal. One that is missing, torn or
 * altered throws: its changes are then unknown, and unknown is not clean (a discard needs force).
 */
export function trustedManifest(sandbox: SandboxInfo): Manifest {
  const file = manifestFile(metaDir(sandbox.path));
  try {
    return readManifest(file);
  } catch (error) {
    throw new BinderyError(
      'io_error',
      `The base manifest of the sandbox of ${sandbox.resourceName} (${file}) cannot be trusted: ${(error as Error).message}. ` +
        `Its changes cannot be determined, so nothing was changed. Copy what you want to keep out of ${sandbox.path}, then discard it anyway (its changes stay unknown).`,
      { sandboxId: sandbox.id, manifest: file, hints: [{ action: 'discard-anyway' }] },
    );
  }
}

/**
 * A folder of the sandbox that cannot be listed hides what changed in it: the changes are
 * unknown (a discard needs force), and the error names the folder and what to do.
 */
function unlistable(sandbox: SandboxInfo): (error: NodeJS.ErrnoException) => never {
  return (error) => {
    if (error.code !== 'EACCES' && error.code !== 'EPERM') throw error;
    const where = typeof error.path === 'string' ? error.path : sandbox.path;
    throw new BinderyError('io_error', `A folder of the sandbox of ${sandbox.resourceName} cannot be read (${where}: permission denied), so its changes cannot be determined. Make it readable (for example chmod u+rx), then look again.`, {
      sandboxId: sandbox.id,
      path: where,
    });
  };
}

/** Compares scanned entries with the manifest, collecting candidates. */
class Comparison {
  readonly candidates: CopyCandidates = new Map();
  readonly seen: Uint8Array;
  verified = false;
  // read_only sandboxes have their write bits cleared on purpose: that is not a change.
  private readonly mask: number;

  /**
   * @param writtenAfter the baseline when entries come from the ctime test: a file whose ctime is
   *   after it was written since provisioning, even if its size and mtime say otherwise.
   */
  constructor(
    private readonly sandbox: SandboxInfo,
    private readonly manifest: Manifest,
    private readonly writtenAfter: number | null,
  ) {
    this.mask = sandbox.access === 'read_only' ? 0o7555 : 0o7777;
    this.seen = new Uint8Array(manifest.size);
  }

  /** One entry found in the sandbox. */
  entry(now: ScanEntry): void {
    const i = this.manifest.indexOf(now.rel);
    if (now.kind === 'dir') {
      // A file or link replaced by a folder is gone (what the folder holds comes as entries of its own).
      if (i !== -1) this.lost(i);
      return;
    }
    if (i === -1) return void this.candidates.set(now.rel, null);
    this.seen[i] = 1;
    const entry = this.manifest.entryAt(i);
    if (now.kind !== entry.type) this.candidates.set(now.rel, entry);
    else if (now.kind === 'symlink') {
      if (now.target !== entry.target) this.candidates.set(now.rel, entry);
    } else if (this.writtenAfter !== null && now.ctimeMs > this.writtenAfter) {
      // A write can keep the size and put the old mtime back (cp -p, touch -r): the content decides.
      this.candidates.set(now.rel, entry);
    } else if ((now.mode & this.mask) !== (entry.mode & this.mask) || now.size !== entry.size || !sameInstant(now.mtimeMs, entry.mtimeMs)) {
      this.candidates.set(now.rel, entry);
    } else if (entry.racy) {
      // One that cannot be read, or is no file now, is a candidate: the change list says what it is.
      if (sha256RegularSync(inRoot(this.sandbox.path, now.rel)) !== entry.sha256) this.candidates.set(now.rel, entry);
      else if (Date.now() - entry.mtimeMs > RACY_WINDOW_MS) {
        // Verified well after its mtime: any later write gets a newer mtime, so the stat suffices from now on.
        this.manifest.markVerified(i);
        this.verified = true;
      }
    }
  }

  /** A manifest entry that is not in the sandbox any more. */
  lost(i: number): void {
    const entry = this.manifest.entryAt(i);
    if (!isExcluded(entry.path) && !this.candidates.has(entry.path)) this.candidates.set(entry.path, entry);
  }
}

/** The names in a sandbox folder, exactly ('' is the root; a folder that is gone has none). */
function namesOf(root: string, dir: string): Set<string> {
  try {
    return new Set(fsSync.readdirSync(inRoot(root, dir), { encoding: 'buffer' }).map((name) => decodeName(name)));
  } catch {
    return new Set();
  }
}

/**
 * The hash of a base file that the original still holds, to learn for later: the manifest keeps
 * content hashes only of files copied within the racy window, yet a change of the original's
 * ctime alone (a chmod to the same mode, a hard link, Bindery's own backups) leaves its stat
 * unable to prove it unchanged. Learned while the stat still proves it (`original` was read
 * with that stat, and the file keeps it after the read), the hash settles that later by content.
 */
export function hashToLearn(entry: ManifestEntry, original: DiskEntry, at: string | Buffer): string | null {
  if (entry.type !== 'file' || entry.sha256 !== undefined || entry.ctimeMs === undefined || original.type !== 'file') return null;
  const same = (s: { size: number; mtimeMs: number; ino: number; ctimeMs: number; mode: number }) =>
    s.size === entry.size && sameInstant(s.mtimeMs, entry.mtimeMs) && s.ino === entry.ino && sameInstant(s.ctimeMs, entry.ctimeMs!) && (s.mode & 0o7777) === entry.mode;
  if (!same(original)) return null;
  try {
    const after = fsSync.lstatSync(at);
    // Unchanged through the read: what was hashed is what was copied.
    return after.isFile() && same(after) ? original.sha256 : null;
  } catch {
    return null;
  }
}

/**
 * Records learned base hashes (see hashToLearn) in the sealed manifest. Best effort: what is not
 * recorded is learned again at the next look (a damaged manifest is refused by that look too).
 */
export function learnBaseHashes(sandbox: SandboxInfo, learned: ReadonlyMap<string, string>): void {
  if (learned.size === 0) return;
  try {
    saveLearned(trustedManifest(sandbox), learned);
  } catch {
    // Left for the next look.
  }
}

function saveLearned(manifest: Manifest, learned: ReadonlyMap<string, string>): void {
  let changed = false;
  for (const [rel, sha256] of learned) {
    const i = manifest.indexOf(rel);
    if (i === -1 || manifest.entryAt(i).sha256 !== undefined) continue;
    manifest.learnHash(i, sha256);
    changed = true;
  }
  if (changed) manifest.saveSync();
}
