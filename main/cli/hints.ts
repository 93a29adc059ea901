/**
 * The CLI's own hints on service errors: the services name the action and the choices (say which
 * sandbox, by resource name), and the CLI adds the flag that makes the choice on its command line.
 */
import { BinderyError } from '../../shared/errors.ts';

/** The error with the command-line way to act on it appended, where there is one; else unchanged. */
export function withCliHint(error: unknown): unknown {
  if (!(error instanceof BinderyError) || !namesSandboxes(error.details)) return error;
  return new BinderyError(error.code, `${error.message} Choose one with --resource <resource name>.`, error.details);
}

function namesSandboxes(details: unknown): boolean {
  return typeof details === 'object' && details !== null && Array.isArray((details as { candidates?: unknown }).candidates);
}
