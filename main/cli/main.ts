/**
 * The `bindery` command line: global flags, command registration, exit codes
 * (0 ok, 1 error, 2 usage). Commands are thin: parse, call the core, print.
 */
import { Command, CommanderError } from 'commander';
import { BinderyError } from '../../shared/errors.ts';
import { CliContext } from './context.ts';
import { Output, type Sinks } from './output.ts';
import { registerDoctor } from './commands/doctor.ts';
import { registerPlans } from './commands/plans.ts';
import { registerProjects } from './commands/projects.ts';
import { registerResolve } from './commands/resolve.ts';
import { registerResources } from './commands/resources.ts';
import { registerServe } from './commands/serve.ts';
import { registerTools } from './commands/tools.ts';
import { registerTrash } from './commands/trash.ts';
import { registerTypes } from './commands/types.ts';
import type { CommandModule } from './command.ts';

/** Every command group, in help order. */
const COMMANDS: CommandModule[] = [registerTypes, registerResources, registerProjects, registerTools, registerResolve, registerPlans, registerTrash, registerServe, registerDoctor];

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[], sinks: Sinks = defaultSinks(), readStdin: () => Promise<string> = readAllStdin): Promise<number> {
  const { json, dataDir, rest } = extractGlobals(argv);
  const output = new Output(json, sinks);
  const context = new CliContext(output, dataDir, readStdin);
  const program = buildProgram(context, sinks, json);
  try {
    await program.parseAsync(rest, { from: 'user' });
    return output.failed ? 1 : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      return output.failure(new BinderyError('usage', `${error.message.replace(/^error: /, '')}. See "bindery --help".`));
    }
    return output.failure(error);
  } finally {
    context.close();
  }
}

function buildProgram(context: CliContext, sinks: Sinks, json: boolean): Command {
  const program = new Command('bindery')
    .description('Register resources, bind tool slots, provision sandboxes and review them.')
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
  for (const register of COMMANDS) register(program, context);
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
  return { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
