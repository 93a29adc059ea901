/**
 * Reading errors that came back from the API: the message to show, and the form field it
 * concerns (the core puts `field` in `details`), so a dialog can show it beside that field.
 */
import { BinderyError, ConflictError } from '../../../shared/errors.ts';

/** The user-facing text of any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  // The app's words, not the CLI's: no command to type (the CLI says "bindery doctor" itself).
  return 'Something went wrong, and no reason was given. Try again; if it keeps failing, restart Bindery.';
}

/**
 * A page's error, or null while the connection bar is up and the error only says the host did
 * not answer: the bar says it already, with its Retry (the page reloads on reconnecting).
 */
export function besideConnectionBar(error: unknown, connected: boolean): unknown {
  if (connected || !(error instanceof BinderyError)) return error;
  const details = error.details as { unreachable?: unknown } | null | undefined;
  return details?.unreachable === true ? null : error;
}

/** The input field an error is about, when the core said so (`details.field`). */
export function errorField(error: unknown): string | null {
  if (!(error instanceof BinderyError)) return null;
  const details = error.details;
  if (typeof details !== 'object' || details === null) return null;
  const field = (details as Record<string, unknown>).field;
  return typeof field === 'string' ? normalizeField(field) : null;
}

/** Splits an error between the named fields of a form and the rest (shown at the form's foot). */
export function splitFormError<F extends string>(error: unknown, fields: readonly F[]): { field: F | null; message: string } | null {
  if (error === null || error === undefined) return null;
  const field = errorField(error);
  const known = fields.find((f) => f === field) ?? null;
  return { field: known, message: errorMessage(error) };
}

// The core names some fields in the file spelling (sandbox_strategy); forms use camelCase.
function normalizeField(field: string): string {
  return field.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** An error divided between form fields: `at(field)` for the field's message, `general` for the rest. */
export interface FormErrors<F extends string> {
  at(field: F): string | null;
  /** The error when no field claims it, for a callout at the form's foot; else null. */
  general: unknown;
}

/**
 * Splits an error for a form. `conflictField` claims ConflictErrors that name no field (a
 * duplicate name is a conflict about the name).
 */
export function formErrors<F extends string>(error: unknown, fields: readonly F[], conflictField?: F): FormErrors<F> {
  const split = splitFormError(error, fields);
  const field = split ? (split.field ?? (conflictField && error instanceof ConflictError ? conflictField : null)) : null;
  return {
    at: (name) => (split && field === name ? split.message : null),
    general: split && field === null ? error : null,
  };
}
