/**
 * Launching TypeScript children in tests (crash children, lock holders, trial drivers) through
 * tsx; without the CLI, so the engine's tests can use it (the CLI's launchers: cli-process.ts).
 */
import path from 'node:path';

/** The repository's root: the working folder of every spawned CLI and child. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** node's arguments that run the TypeScript file `script` with `args`. */
export function tsxArgs(script: string, args: readonly string[] = []): string[] {
  return ['--import', 'tsx', script, ...args];
}

/** node's arguments that run `code` as an ES module (TypeScript imports allowed) with `args`. */
export function tsxEvalArgs(code: string, args: readonly string[] = []): string[] {
  return ['--import', 'tsx', '--input-type=module', '-e', code, ...args];
}
