/** Types of scripts/electron-binary.js for TypeScript callers (the e2e fixtures). */

/** The executable's path inside an Electron distribution folder. */
export function platformExecutable(platform?: NodeJS.Platform): string;

/** The Electron executable, or why there is none; never downloads. */
export function findElectronBinary(options?: { env?: NodeJS.ProcessEnv; root?: string; platform?: NodeJS.Platform }): { path: string; reason?: undefined } | { path?: undefined; reason: string };
