/** Where the built renderer is, from the source tree (tsx) or from a bundled CLI in out/cli. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `BINDERY_RENDERER_DIR`, else the first out/renderer found next to this code, else the source-tree one. */
export function defaultRendererDir(env: NodeJS.ProcessEnv = process.env, moduleUrl: string = import.meta.url): string {
  if (env.BINDERY_RENDERER_DIR) return path.resolve(env.BINDERY_RENDERER_DIR);
  const here = path.dirname(fileURLToPath(moduleUrl));
  // Bundled: out/cli/bindery.js -> out/renderer. Source: main/web/ -> out/renderer.
  const candidates = [path.resolve(here, '../renderer'), path.resolve(here, '../../out/renderer')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? candidates[1]!;
}
