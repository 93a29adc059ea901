/**
 * Which paths of a copied sandbox may differ from its base: the entries of the sandbox (all, or
 * only those changed since provisioning where the ctime can tell) compared with the manifest
 * (size, mtime, mode, type, symlink target), content only for racy entries (which stop being
 * racy once verified). `.git` at the top is left out: committing a copied repository's git
 * internals back would corrupt the original's.
 */
import fsSync from 'node:fs';
import { decodeName, inRoot } from './fs-path.ts';
import { metaDir } from './layout.ts';
import { manifestFile, RACY_WINDOW_MS, readBaseline, readManifest, rewriteManifestSync, sameMtime, sha256FileSync, type ManifestEntry } from './manifest.ts';
import type { SandboxRecord } from './model.ts';
import { scanChangedSince, scanTree, type ScanEntry, type ScanOptions } from './scan.ts';

/** Paths that may have changed, with the manifest entry of each (null when the base had none). */
export type CopyCandidates = Map<string, ManifestEntry | null>;

/** True for paths change detection and commits never look at. */
export function isExcluded(rel: string): boolean {
  return rel === '.git' || rel.startsWith('.git/');
}

/**
 * How far before the baseline changes are looked for: file times come from a coarse kernel clock
 * (a tick is 1-10 ms), so a write just after the baseline can carry a slightly older time.
 */
const BASELINE_MARGIN_MS = 100;

/**
 * Lists candidate paths of a copied sandbox against its manifest. With GNU find and a recorded
 * baseline, only entries whose ctime is newer are looked at (plus folders whose entries changed,
 * for deletions); otherwise the whole tree is scanned.
 */
export async function copyCandidates(sandbox: SandboxRecord, options: Pick<ScanOptions, 'portable'> = {}): Promise<CopyCandidates> {
  const meta = metaDir(sandbox.path);
  const file = manifestFile(meta);
  const manifest = readManifest(file);
  const baseline = options.portable ? null : readBaseline(meta);
  const since = baseline === null ? null : baseline - BASELINE_MARGIN_MS;
  const changed = since === null ? null : await scanChangedSince(sandbox.path, since, { skipTopGit: true });
  const entries = changed ?? (await scanTree(sandbox.path, { skipTopGit: true, portable: options.portable }));
  const compare = new Comparison(sandbox, manifest);
  for (const now of entries) compare.entry(now);
  if (changed && since !== null) {
    // Only folders whose entries changed can have lost files: their ctime moved. The root is not listed by find.
    const dirs = new Map<string, Set<string> | null>(changed.filter((e) => e.kind === 'dir').map((e) => [e.rel, null]));
    if (fsSync.statSync(sandbox.path).ctimeMs > since) dirs.set('', null);
    if (dirs.size > 0) {
      for (const [rel, entry] of manifest) {
        if (!compare.candidates.has(rel) && !isExcluded(rel) && lostUnder(sandbox.path, rel, dirs)) compare.candidates.set(rel, entry);
      }
    }
  } else if (compare.seen < manifest.size) {
    const present = new Set(entries.map((e) => e.rel));
    for (const [rel, entry] of manifest) if (!present.has(rel) && !isExcluded(rel)) compare.candidates.set(rel, entry);
  }
  if (compare.verified) rewriteManifestSync(file, manifest);
  return compare.candidates;
}

/** Compares scanned entries with the manifest, collecting candidates. */
class Comparison {
  readonly candidates: CopyCandidates = new Map();
  seen = 0;
  verified = false;
  // read_only sandboxes have their write bits cleared on purpose: that is not a change.
  private readonly mask: number;

  constructor(
    private readonly sandbox: SandboxRecord,
    private readonly manifest: Map<string, ManifestEntry>,
  ) {
    this.mask = sandbox.access === 'read_only' ? 0o7555 : 0o7777;
  }

  entry(now: ScanEntry): void {
    if (now.kind === 'dir') return;
    const entry = this.manifest.get(now.rel);
    if (!entry) return void this.candidates.set(now.rel, null);
    this.seen++;
    if (now.kind !== entry.type) this.candidates.set(now.rel, entry);
    else if (now.kind === 'symlink') {
      if (now.target !== entry.target) this.candidates.set(now.rel, entry);
    } else if ((now.mode & this.mask) !== (entry.mode & this.mask) || now.size !== entry.size || !sameMtime(now.mtimeMs, entry.mtimeMs)) {
      this.candidates.set(now.rel, entry);
    } else if (entry.racy) {
      if (sha256FileSync(inRoot(this.sandbox.path, now.rel)) !== entry.sha256) this.candidates.set(now.rel, entry);
      else if (Date.now() - entry.mtimeMs > RACY_WINDOW_MS) {
        // Verified well after its mtime: any later write gets a newer mtime, so the stat suffices from now on.
        delete entry.racy;
        this.verified = true;
      }
    }
  }
}

/**
 * True when a changed folder on the way to `rel` no longer has the next name of its path, so the
 * entry is gone. Each changed folder is listed once (`dirs` caches the names).
 */
function lostUnder(root: string, rel: string, dirs: Map<string, Set<string> | null>): boolean {
  let dir = '';
  let start = 0;
  for (;;) {
    const next = rel.indexOf('/', start);
    const name = rel.slice(start, next === -1 ? undefined : next);
    if (dirs.has(dir) && !namesOf(root, dir, dirs).has(name)) return true;
    if (next === -1) return false;
    dir = rel.slice(0, next);
    start = next + 1;
  }
}

function namesOf(root: string, dir: string, dirs: Map<string, Set<string> | null>): Set<string> {
  let names = dirs.get(dir) ?? null;
  if (!names) {
    try {
      names = new Set(fsSync.readdirSync(inRoot(root, dir), { encoding: 'buffer' }).map((name) => decodeName(name)));
    } catch {
      names = new Set();
    }
    dirs.set(dir, names);
  }
  return names;
}
