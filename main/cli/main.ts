/**
 * The `bindery` command line: global flags, command registration, exit codes
 * (0 ok, 1 error, 2 usage). Commands are thin: parse, call the core, print.
 */
import { Command, CommanderError } from 'commander';
import { BinderyError } from '../../shared/errors.ts';
import { CliContext } from './context.ts';
import { withCliHint } from './hints.ts';
import { Output, type Sinks } from './output.ts';
import type { CommandModule } from './command.ts';
import { binderyVersion } from './version.ts';

/**
 * Every command group by name, in help order. Each is imported only when asked for, so a command
 * loads its own code and not every other's (the diff, the web server, the MCP SDK): start-up time.
 */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  types: async () => (await import('./commands/types.ts')).registerTypes,
  resources: async () => (await import('./commands/resources.ts')).registerResources,
  projects: async () => (await import('./commands/projects.ts')).registerProjects,
  tools: async () => (await import('./commands/tools.ts')).registerTools,
  resolve: async () => (await import('./commands/resolve.ts')).registerResolve,
  plans: async () => (await import('./commands/plans.ts')).registerPlans,
  trash: async () => (await import('./commands/trash.ts')).registerTrash,
  serve: async () => (await import('./commands/serve.ts')).registerServe,
  mcp: async () => (await import('./commands/mcp.ts')).registerMcp,
  doctor: async () => (await import('./commands/doctor.ts')).registerDoctor,
};

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[], sinks: Sinks = defaultSinks(), readStdin: () => Promise<string> = readAllStdin): Promise<number> {
  const { json: asked, dataDir, rest } = extractGlobals(argv);
  // `bindery mcp`'s stdout carries the protocol alone: its failures go to stderr as text.
  const json = asked && rest.find((arg) => !arg.startsWith('-')) !== 'mcp';
  const output = new Output(json, sinks);
  const context = new CliContext(output, dataDir, readStdin);
  try {
    const program = await buildProgram(context, sinks, json, rest);
    await program.parseAsync(rest, { from: 'user' });
    return output.exitCode ?? (output.failed ? 1 : 0);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      return output.failure(new BinderyError('usage', `${error.message.replace(/^error: /, '')}. See "bindery --help".`));
    }
    return output.failure(withCliHint(error));
  } finally {
    context.close();
  }
}

/** The command groups `rest` needs: the one it names, none for `--version`, else all (help, a typo). */
export function commandsFor(rest: readonly string[]): string[] {
  const named = rest.find((arg) => !arg.startsWith('-'));
  if (named !== undefined && Object.hasOwn(COMMANDS, named)) return [named];
  if (named === undefined && rest.some((arg) => arg === '--version' || arg === '-V')) return [];
  return Object.keys(COMMANDS);
}

async function buildProgram(context: CliContext, sinks: Sinks, json: boolean, rest: string[]): Promise<Command> {
  const program = new Command('bindery')
    .description('Register resources, bind tool slots, provision sandboxes and review them.')
    .version(binderyVersion(), '-V, --version', 'print the version')
    .option('--json', 'print results as JSON with the reference field names')
    .option('--data-dir <dir>', 'data directory (default: $BINDERY_HOME, else the app-data folder for "Bindery")')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: sinks.out,
      writeErr: (text) => {
        if (!json && !text.startsWith('error:')) sinks.err(text);
      },
    });
  program.addHelpText(
    'after',
    '\nExamples:\n  bindery resources add local/app --type git-checkout --location ~/src/app\n  bindery --json resolve my-tool --project demo',
  );
  const names = commandsFor(rest);
  const [modules] = await Promise.all([Promise.all(names.map((name) => COMMANDS[name]!())), names.length > 0 ? context.load() : undefined]);
  for (const register of modules) register(program, context);
  // Every command starts by finishing or undoing interrupted work (see CliContext.beforeCommand).
  program.hook('preAction', (_program, command) => context.beforeCommand(command));
  return program;
}

/** Pulls `--json` and `--data-dir` out of argv wherever they stand (before a `--`). */
export function extractGlobals(argv: string[]): { json: boolean; dataDir: string | undefined; rest: string[] } {
  let json = false;
  let dataDir: string | undefined;
  const rest: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--') {
      rest.push(...argv.slice(index));
      break;
    }
    if (arg === '--json') json = true;
    else if (arg === '--data-dir') dataDir = argv[++index];
    else if (arg.startsWith('--data-dir=')) dataDir = arg.slice('--data-dir='.length);
    else rest.push(arg);
  }
  return { json, dataDir, rest };
}

function defaultSinks(): Sinks {
  return { out: pipeSink(process.stdout), err: pipeSink(process.stderr) };
}

/**
 * Writes to a stream until its reader goes away (`bindery plans diff P | head -1`): EPIPE then ends
 * the output quietly and the command's exit code stands, as git does (issue 22). Other errors still throw.
 */
function pipeSink(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
