/** The errors a git invocation ends with, worded alike whichever runner started it. */
import fs from 'node:fs';
import { BinderyError, CancelledError } from '../../shared/errors.ts';

/** What a failed invocation says: git's own words, or what kept git from saying anything. */
export function gitFailure(operation: string, cwd: string, failure: { code: number; stderr: string; startError?: Error; signalName?: string | null }): BinderyError {
  const { code, stderr } = failure;
  const details = { operation, code, stderr };
  if (isNotFound(failure.startError)) {
    // Node reports a missing working folder as a missing program: tell the two apart.
    if (!fs.existsSync(cwd)) return missingFolder(operation, cwd);
    return new BinderyError('io_error', `git ${operation} could not start in ${cwd}: git was not found; install git 2.25 or newer and make sure it is on PATH.`, details);
  }
  const reason = stderr || failure.startError?.message || (failure.signalName ? `killed by ${failure.signalName}` : `exit code ${code}`);
  return new BinderyError('io_error', `git ${operation} failed in ${cwd}: ${reason}`, details);
}

/** A working folder that is not there (gone since it was chosen, or never created). */
export function missingFolder(operation: string, cwd: string): BinderyError {
  return new BinderyError('io_error', `git ${operation} failed in ${cwd}: the folder does not exist; check that it was not moved or deleted.`, { operation, code: -1, stderr: '' });
}

/** git stopped for printing nothing for `timeoutMs`. */
export function gitTimedOut(operation: string, cwd: string, timeoutMs: number): BinderyError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return new BinderyError('io_error', `git ${operation} in ${cwd} gave no answer within ${seconds} s and was stopped; check that the folder is reachable, then try again.`, {
    operation,
    code: -1,
    stderr: '',
  });
}

/** Cancelled before git started: nothing ran, so nothing is left half done. */
export function cancelledBefore(operation: string): CancelledError {
  return new CancelledError(`Cancelled before running git ${operation}.`);
}

/** Cancelled while git ran: git was stopped. */
export function cancelledWhile(operation: string): CancelledError {
  return new CancelledError(`Cancelled while running git ${operation}.`);
}

function isNotFound(error: Error | undefined): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
