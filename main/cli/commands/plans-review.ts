/**
 * `bindery plans notes ...` and `bindery plans run` (issue 23): review notes for the tool, and
 * "request changes", which runs the tool's command again with the plan's open notes handed over.
 */
import os from 'node:os';
import type { Command } from 'commander';
import { BinderyError, ConflictError, NotFoundError } from '../../../shared/errors.ts';
import { displayPath } from '../../../shared/display-path.ts';
import type { RunInfo } from '../../../shared/dto.ts';
import type { NoteSide, ReviewNote } from '../../../shared/review-dto.ts';
import { toWire } from '../../core/codec.ts';
import { notesService } from '../../services/notes-service.ts';
import { runServiceFor } from '../../services/run-service.ts';
import type { CliContext } from '../context.ts';
import { table } from '../output.ts';

/** Parses `--lines [old:|new:]from[-to]` (the sandbox's side when none is named). */
export function parseLines(value: string): { side: NoteSide; fromLine: number; toLine: number } {
  const match = /^(?:(old|new):)?(\d+)(?:-(\d+))?$/.exec(value.trim());
  const from = Number(match?.[2]);
  const to = match?.[3] === undefined ? from : Number(match[3]);
  if (!match || from < 1 || to < from) {
    throw new BinderyError('usage', `--lines takes [old:|new:]from[-to] as "plans diff" numbers them, like new:12 or old:10-14, not "${value}"`);
  }
  return { side: (match[1] as NoteSide | undefined) ?? 'new', fromLine: from, toLine: to };
}

/** Where a note applies, in a few words. */
export function noteWhere(note: ReviewNote): string {
  if (note.path === null) return note.resourceName ?? 'the plan';
  const lines = note.fromLine === null ? '' : `:${note.side}:${note.fromLine}${note.toLine === note.fromLine ? '' : `-${note.toLine}`}`;
  return `${note.resourceName ?? '?'} ${displayPath(note.path)}${lines}`;
}

function firstLine(text: string, max = 60): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > max || text.includes('\n') ? `${line.slice(0, max - 3)}...` : line;
}

/** Adds `plans notes ...` and `plans run` to the `plans` command group. */
export function registerPlanReview(plans: Command, context: CliContext): void {
  const out = context.output;
  const service = () => notesService(context.bindery());
  const notes = plans.command('notes').description('review notes for the tool: on the plan, a sandbox, a file or lines of a diff');

  notes
    .command('add <plan>')
    .description('add a note; on lines, their text is kept so the note shows as outdated once they change')
    .option('--resource <resource>', 'the sandbox: resource name, id or slot name (needed for a file or lines)')
    .option('--path <path>', 'a file, relative to the sandbox')
    .option('--lines <[side:]from[-to]>', 'lines of the file as "plans diff" numbers them: old:10-14 (original) or new:12 (sandbox, the default side)')
    .requiredOption('-m, --message <text>', 'what should change')
    .action(async (planRef: string, options: { resource?: string; path?: string; lines?: string; message: string }) => {
      const lines = options.lines === undefined ? {} : parseLines(options.lines);
      const note = await service().add({ plan: planRef, sandbox: options.resource, path: options.path, ...lines, body: options.message });
      out.result(toWire(note), () => `Added note ${note.id} on ${noteWhere(note)}.`);
    });

  notes
    .command('list <plan>')
    .description("list a plan's notes, oldest first, with those whose lines changed marked outdated")
    .option('--resource <resource>', 'only the notes of one sandbox')
    .option('--open', 'only open notes (those the next run receives)')
    .action(async (planRef: string, options: { resource?: string; open?: boolean }) => {
      const list = await service().list(planRef, { sandbox: options.resource, status: options.open ? 'open' : undefined });
      out.result(toWire(list), () =>
        table(
          ['NOTE', 'STATUS', 'WHERE', 'TEXT'],
          list.map((n) => [n.id, `${n.status}${n.outdated ? ', outdated' : ''}`, noteWhere(n), firstLine(n.body)]),
          'No notes. Add one: bindery plans notes add <plan> -m "<what should change>"',
        ),
      );
    });

  notes
    .command('resolve <note>')
    .description('resolve a note (the tool no longer receives it), or reopen it')
    .option('--reopen', 'open it again')
    .action(async (noteRef: string, options: { reopen?: boolean }) => {
      const note = await service().update(noteRef, { status: options.reopen ? 'open' : 'resolved' });
      out.result(toWire(note), () => `${options.reopen ? 'Reopened' : 'Resolved'} note ${note.id}.`);
    });

  notes
    .command('edit <note>')
    .description("change a note's text")
    .requiredOption('-m, --message <text>', 'the new text')
    .action(async (noteRef: string, options: { message: string }) => {
      const note = await service().update(noteRef, { body: options.message });
      out.result(toWire(note), () => `Edited note ${note.id}.`);
    });

  notes
    .command('delete <note>')
    .description('delete a note for good (resolving keeps it for the record)')
    .option('--yes', 'confirm')
    .action((noteRef: string, options: { yes?: boolean }) => {
      const notes = service();
      const note = notes.find(noteRef);
      if (!options.yes) throw new ConflictError(`Nothing was deleted: deleting note ${note.id} cannot be undone. Run again with --yes, or resolve it instead.`);
      if (!notes.remove(note.id)) throw new NotFoundError(`Note ${note.id} was deleted meanwhile.`);
      out.result({ deleted: true, id: note.id }, () => `Deleted note ${note.id}.`);
    });

  plans
    .command('run <plan>')
    .description("run the tool's run command again in the plan's sandboxes, with its open notes in $BINDERY_REVIEW_NOTES; exits with the command's status")
    .option('--timeout <seconds>', 'stop the command after this many seconds (default 1800)')
    .action(async (planRef: string, options: { timeout?: string }) => {
      const timeoutMs = options.timeout === undefined ? undefined : Number(options.timeout) * 1000;
      if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
        throw new BinderyError('usage', `--timeout takes a whole number of seconds, not "${options.timeout}"`);
      }
      const bindery = context.bindery();
      const runs = runServiceFor(bindery);
      if (!out.json) {
        runs.onEvent((event) => {
          if (event.type !== 'output') return;
          if (event.chunk.stream === 'stdout') out.raw(event.chunk.text);
          else out.rawError(event.chunk.text);
        });
      }
      const started = runs.start(planRef, { timeoutMs });
      const stop = () => runs.stop(started.id);
      process.once('SIGINT', stop);
      let ended: RunInfo;
      try {
        ended = await runs.settled(started.id);
      } finally {
        process.removeListener('SIGINT', stop);
      }
      out.exitCode = runExitCode(ended);
      if (out.json) out.result(toWire(ended), () => '');
      else if (ended.status !== 'exited') out.note(runEnding(ended));
    });
}

/**
 * The exit status of `plans run`, as a shell reports the command's: its own code, 128 + n when
 * signal n killed it, 130 when stopped by Ctrl-C, 124 on the timeout (as timeout(1)), else 1.
 */
export function runExitCode(run: RunInfo): number {
  if (run.status === 'exited') return 0;
  if (run.status === 'stopped') return 130;
  if (run.status === 'timed_out') return 124;
  if (run.exitCode !== null) return run.exitCode || 1;
  const signal = run.signal === null ? undefined : os.constants.signals[run.signal as NodeJS.Signals];
  return signal === undefined ? 1 : 128 + signal;
}

function runEnding(run: RunInfo): string {
  if (run.error) return `bindery: ${run.error}`;
  if (run.status === 'stopped') return 'bindery: the run was stopped.';
  if (run.status === 'timed_out') return 'bindery: the run timed out and was stopped: give it more time with --timeout <seconds>.';
  return `bindery: the command exited with ${run.exitCode === null ? `signal ${run.signal ?? '?'}` : `code ${run.exitCode}`}.`;
}
