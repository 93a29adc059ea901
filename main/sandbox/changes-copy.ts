/**
 * Which paths of a copied sandbox may differ from its base: one walk of the sandbox, an lstat
 * per entry compared with the manifest (size, mtime, mode, type), content only for racy
 * entries (which stop being racy once verified). `.git` at the top is left out: committing a
 * copied repository's git internals back would corrupt the original's.
 */
import fsSync from 'node:fs';
import { inRoot } from './fs-path.ts';
import { manifestFile, permissionBits, RACY_WINDOW_MS, readManifest, rewriteManifestSync, sameMtime, sha256FileSync, type ManifestEntry } from './manifest.ts';
import { metaDir } from './layout.ts';
import type { SandboxRecord } from './model.ts';
import { walkSync } from './walk.ts';

/** Paths that may have changed, with the manifest entry of each (null when the base had none). */
export type CopyCandidates = Map<string, ManifestEntry | null>;

/** True for paths change detection and commits never look at. */
export function isExcluded(rel: string): boolean {
  return rel === '.git' || rel.startsWith('.git/');
}

/** Lists candidate paths of a copied sandbox against its manifest. */
export function copyCandidates(sandbox: SandboxRecord): { candidates: CopyCandidates; manifest: Map<string, ManifestEntry> } {
  const file = manifestFile(metaDir(sandbox.path));
  const manifest = readManifest(file);
  let verified = false;
  const candidates: CopyCandidates = new Map();
  const seen = new Set<string>();
  // read_only sandboxes have their write bits cleared on purpose: that is not a change.
  const mask = sandbox.access === 'read_only' ? 0o7555 : 0o7777;
  walkSync(
    sandbox.path,
    (rel, stat) => {
      const entry = manifest.get(rel);
      if (!entry) {
        candidates.set(rel, null);
        return;
      }
      seen.add(rel);
      const type = stat.isSymbolicLink() ? 'symlink' : stat.isFile() ? 'file' : 'other';
      if (type !== entry.type) return void candidates.set(rel, entry);
      if (type === 'symlink') {
        if (fsSync.readlinkSync(inRoot(sandbox.path, rel), 'utf8') !== entry.target) candidates.set(rel, entry);
        return;
      }
      const sameMode = (permissionBits(stat.mode) & mask) === (entry.mode & mask);
      const sameStat = stat.size === entry.size && sameMtime(stat.mtimeMs, entry.mtimeMs);
      if (!sameMode || !sameStat) return void candidates.set(rel, entry);
      if (!entry.racy) return;
      if (sha256FileSync(inRoot(sandbox.path, rel)) !== entry.sha256) return void candidates.set(rel, entry);
      // Verified well after its mtime: any later write gets a newer mtime, so the stat suffices from now on.
      if (Date.now() - entry.mtimeMs > RACY_WINDOW_MS) {
        delete entry.racy;
        verified = true;
      }
    },
    { skip: (rel) => isExcluded(rel) },
  );
  for (const [rel, entry] of manifest) if (!seen.has(rel) && !isExcluded(rel)) candidates.set(rel, entry);
  if (verified) rewriteManifestSync(file, manifest);
  return { candidates, manifest };
}
