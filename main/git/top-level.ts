/** Where a folder's git work tree starts, for registering and inspecting folders. */
import fs from 'node:fs/promises';
import { gitText } from './git.ts';

/**
 * The root of the work tree containing `dir` (symlinks resolved), or null when git says it is
 * not in one. The runner's environment keeps an inherited GIT_DIR or GIT_WORK_TREE from
 * answering for another repository.
 */
export async function workTreeRoot(dir: string): Promise<string | null> {
  try {
    const top = await gitText('rev-parse', ['rev-parse', '--show-toplevel'], { cwd: dir });
    return top ? await fs.realpath(top) : null;
  } catch {
    return null;
  }
}
