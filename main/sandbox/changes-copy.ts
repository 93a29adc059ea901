/**
 * Which paths of a copied sandbox may differ from its base: one scan of the sandbox (stat of
 * every entry, see scan.ts) compared with the manifest (size, mtime, mode, type, symlink
 * target), content only for racy entries (which stop being racy once verified). `.git` at the
 * top is left out: committing a copied repository's git internals back would corrupt the
 * original's.
 */
import { inRoot } from './fs-path.ts';
import { metaDir } from './layout.ts';
import { manifestFile, RACY_WINDOW_MS, readManifest, rewriteManifestSync, sameMtime, sha256FileSync, type ManifestEntry } from './manifest.ts';
import type { SandboxRecord } from './model.ts';
import { scanTree, type ScanOptions } from './scan.ts';

/** Paths that may have changed, with the manifest entry of each (null when the base had none). */
export type CopyCandidates = Map<string, ManifestEntry | null>;

/** True for paths change detection and commits never look at. */
export function isExcluded(rel: string): boolean {
  return rel === '.git' || rel.startsWith('.git/');
}

/** Lists candidate paths of a copied sandbox against its manifest. */
export async function copyCandidates(sandbox: SandboxRecord, options: Pick<ScanOptions, 'portable'> = {}): Promise<CopyCandidates> {
  const file = manifestFile(metaDir(sandbox.path));
  const manifest = readManifest(file);
  const entries = await scanTree(sandbox.path, { skipTopGit: true, portable: options.portable });
  const candidates: CopyCandidates = new Map();
  let seen = 0;
  let verified = false;
  // read_only sandboxes have their write bits cleared on purpose: that is not a change.
  const mask = sandbox.access === 'read_only' ? 0o7555 : 0o7777;
  for (const now of entries) {
    if (now.kind === 'dir') continue;
    const entry = manifest.get(now.rel);
    if (!entry) {
      candidates.set(now.rel, null);
      continue;
    }
    seen++;
    if (now.kind !== entry.type) candidates.set(now.rel, entry);
    else if (now.kind === 'symlink') {
      if (now.target !== entry.target) candidates.set(now.rel, entry);
    } else if ((now.mode & mask) !== (entry.mode & mask) || now.size !== entry.size || !sameMtime(now.mtimeMs, entry.mtimeMs)) {
      candidates.set(now.rel, entry);
    } else if (entry.racy) {
      if (sha256FileSync(inRoot(sandbox.path, now.rel)) !== entry.sha256) candidates.set(now.rel, entry);
      else if (Date.now() - entry.mtimeMs > RACY_WINDOW_MS) {
        // Verified well after its mtime: any later write gets a newer mtime, so the stat suffices from now on.
        delete entry.racy;
        verified = true;
      }
    }
  }
  if (seen < manifest.size) {
    const present = new Set(entries.map((e) => e.rel));
    for (const [rel, entry] of manifest) if (!present.has(rel) && !isExcluded(rel)) candidates.set(rel, entry);
  }
  if (verified) rewriteManifestSync(file, manifest);
  return candidates;
}
