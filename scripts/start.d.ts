/** Types of scripts/start.js for its tests. */

/** Newest modification time (ms) under the given files or folders, ignoring tests. */
export function newestMtime(entries: string[]): number;

/** True when any output is missing or older than `sourceMtime`. */
export function isStale(outputs: string[], sourceMtime: number): boolean;
