/** Types of scripts/build.js. */

/** Modules kept outside the bundles. */
export const EXTERNALS: string[];
/** Builds the renderer into out/renderer. */
export function buildRenderer(): Promise<void>;
/** Builds out/main, out/preload and out/cli. */
export function buildNode(): Promise<void>;
/** Builds everything. */
export function buildAll(): Promise<void>;
/** Builds only the CLI bundle, out/cli. */
export function buildCli(): Promise<void>;
/** Where the list of the CLI bundle's source files is written, relative to the root. */
export const CLI_INPUTS_FILE: string;
