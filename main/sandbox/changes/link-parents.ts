/**
 * Whether a path lies behind a symlink in its tree: a folder the tool replaced with a link. As git
 * does (`has_symlink_leading_path`), nothing is there for the change list; read as it is, the
 * path would show, and a commit would copy, whatever the link leads to.
 */
import fsSync from 'node:fs';
import { inRoot } from '../fs/index.ts';

/** Answers for the folders looked at, by their path in one root: a list shares them. */
export type LinkMemo = Map<string, boolean>;

/** True when a folder on the way from `root` to `rel` (`/` separated) is a symlink. */
export function behindLink(root: string, rel: string, memo: LinkMemo = new Map()): boolean {
  let slash = rel.indexOf('/');
  while (slash !== -1) {
    const dir = rel.slice(0, slash);
    const key = `${root}\0${dir}`;
    let link = memo.get(key);
    if (link === undefined) {
      try {
        link = fsSync.lstatSync(inRoot(root, dir)).isSymbolicLink();
      } catch {
        link = false;
      }
      memo.set(key, link);
    }
    if (link) return true;
    slash = rel.indexOf('/', slash + 1);
  }
  return false;
}
