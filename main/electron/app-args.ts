/** Reads the Electron app's own command-line switches, ignoring Chromium's and Electron's. */

/** What the app takes from its command line. */
export interface AppArgs {
  /** `--data-dir <dir>` or `--data-dir=<dir>`. */
  dataDir: string | undefined;
  /** The arguments after `--cli` (the packaged `bindery` command), or null for the window app. */
  cli: string[] | null;
}

/** Parses `argv` as Electron gives it (executable first, maybe the app path next). */
export function parseAppArgs(argv: readonly string[]): AppArgs {
  const cliAt = argv.indexOf('--cli');
  if (cliAt !== -1) return { dataDir: undefined, cli: argv.slice(cliAt + 1) };
  let dataDir: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--data-dir' && index + 1 < argv.length) dataDir = argv[++index];
    else if (arg.startsWith('--data-dir=')) dataDir = arg.slice('--data-dir='.length);
  }
  return { dataDir: dataDir || undefined, cli: null };
}
