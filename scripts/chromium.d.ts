/** Types of scripts/chromium.js for TypeScript callers (playwright.config.ts, its tests). */

/** A browser found for the e2e run and where it came from. */
export interface FoundChromium {
  path: string;
  source: 'BINDERY_CHROMIUM' | 'system' | 'playwright';
}

/** The line printed when no browser can be found or installed. */
export const NO_CHROMIUM: string;
/** Where Chromium and Chrome are installed on `platform`, most usual first. */
export function systemBrowserPaths(platform?: NodeJS.Platform, env?: NodeJS.ProcessEnv): string[];
/** Whether `file` is an existing file. */
export function isFile(file: string): boolean;
/** The path of Playwright's own Chromium (present or not), or null without Playwright. */
export function playwrightChromiumPath(): string | null;
/** Finds the browser for the e2e run, or null; throws when BINDERY_CHROMIUM names nothing. */
export function findChromium(options?: {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  exists?: (file: string) => boolean;
  playwrightPath?: () => string | null;
}): FoundChromium | null;
/** Runs `playwright install chromium`; true when it succeeded. */
export function installPlaywrightChromium(): boolean;
/** A browser for the e2e run, installing Playwright's Chromium when none is found; throws NO_CHROMIUM otherwise. */
export function ensureChromium(options?: { find?: () => FoundChromium | null; install?: () => boolean }): FoundChromium;
