/**
 * Paths as the journal's filesystem calls need them. The journal keeps every path as a string in
 * which each byte of a name that is not UTF-8 is an escape (U+DC80..U+DCFF, see ../../fs/paths.ts), so
 * it survives the journal's JSON exactly; on its way to the disk such a path becomes its bytes,
 * and names read back from the disk are escaped the same way.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { decodeName, encodeName, hasEscapes } from '../../fs/index.ts';

/** The path to hand to `fs`: the string itself, or its exact bytes when it holds escaped bytes. */
export function diskPath(text: string): string | Buffer {
  return hasEscapes(text) ? encodeName(text) : text;
}

/** A symlink's target, exactly (escaped where it is not UTF-8). */
export function readLinkExact(file: string): string {
  return decodeName(fs.readlinkSync(diskPath(file), { encoding: 'buffer' }));
}

/** Creates a symlink at `file` whose target is exactly `target` (an escaped string). */
export function symlinkExact(target: string, file: string): void {
  fs.symlinkSync(diskPath(target), diskPath(file));
}

/** The path with every symlink resolved, exactly, as the OS sees it. */
export async function realPathExact(file: string): Promise<string> {
  return decodeName(await fsp.realpath(diskPath(file), { encoding: 'buffer' }));
}

/** `realPathExact`, synchronously and through the OS's own realpath (case and firmlinks included). */
export function nativeRealPathExact(file: string): string {
  return decodeName(fs.realpathSync.native(diskPath(file), { encoding: 'buffer' }));
}
