/**
 * Serves the built renderer (out/renderer) to the browser: paths are contained in the root
 * (after resolving symlinks), only regular files are sent, and unknown app routes fall back to
 * index.html. When the renderer is not built, one page says how to build it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** What to answer for a static request. */
export type StaticAnswer =
  | { kind: 'file'; file: string; contentType: string }
  | { kind: 'not-built' }
  | { kind: 'not-found' }
  | { kind: 'bad-request' };

/** Maps a URL path to a file under `root`; never a file outside it. */
export async function resolveStatic(root: string, urlPath: string): Promise<StaticAnswer> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: 'bad-request' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'bad-request' };
  let realRoot: string;
  try {
    realRoot = await fs.realpath(root);
    await fs.access(path.join(realRoot, 'index.html'));
  } catch {
    return { kind: 'not-built' };
  }
  const relative = path.posix.normalize(decoded).replace(/^\/+/, '');
  if (relative.startsWith('..')) return { kind: 'bad-request' };
  const found = await regularFileInside(realRoot, relative === '' ? 'index.html' : relative);
  if (found) return { kind: 'file', file: found, contentType: contentType(found) };
  // A path without an extension is an app route (history navigation): the app answers it.
  if (path.posix.extname(relative) === '') return { kind: 'file', file: path.join(realRoot, 'index.html'), contentType: TYPES['.html']! };
  return { kind: 'not-found' };
}

/** The content type for a file name, `application/octet-stream` when unknown. */
export function contentType(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

async function regularFileInside(realRoot: string, relative: string): Promise<string | null> {
  try {
    const real = await fs.realpath(path.join(realRoot, relative));
    const inside = path.relative(realRoot, real);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
    return (await fs.stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}

/** The page shown when out/renderer has no build yet. */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bindery: renderer not built</title></head>
<body>
<h1>The Bindery app is not built yet</h1>
<p>The server is running and its API works, but there is no renderer to show.</p>
<p>In the Bindery folder, run <code>npm run build</code>, then reload this page.</p>
</body></html>
`;
