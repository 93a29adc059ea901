/** The Bindery version, for `bindery --version`. */
import fs from 'node:fs';
import path from 'node:path';

// Replaced by its value when scripts/build.js bundles the CLI or the app; unset when run from source.
declare const BINDERY_VERSION: string | undefined;

/** The package version: inlined in a bundle, read from package.json when run from the sources. */
export function binderyVersion(): string {
  if (typeof BINDERY_VERSION === 'string') return BINDERY_VERSION;
  const manifest = path.resolve(import.meta.dirname, '../../package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}
