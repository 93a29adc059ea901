/** Types of scripts/build.js. */

/** Modules kept outside the bundles. */
export const EXTERNALS: string[];
/** Builds the renderer into out/renderer. */
export function buildRenderer(): Promise<void>;
/** Builds out/main, out/preload and out/cli. */
export function buildNode(): Promise<void>;
/** Builds everything. */
export function buildAll(): Promise<void>;
/** Builds only the CLI bundle (out/cli unless `outDir`); returns esbuild's metafile. */
export function buildCli(options?: { outDir?: string }): Promise<import('esbuild').Metafile>;
/** Renames the folder `fresh` to `target`, replacing what is there, safe beside another build doing the same. */
export function swapIn(fresh: string, target: string): void;
/** The CLI bundle's text as written: one shared import of each built-in, and pure ASCII. */
export function finishCliBundle(text: string): string;
