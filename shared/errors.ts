/**
 * Typed errors shared by the core, the hosts and the renderer. They cross every boundary as
 * `{ code, message, details }` and are rebuilt here on the other side.
 */

/** Every error code the API can return. */
export const ERROR_CODES = [
  'validation_error',
  'not_found',
  'conflict',
  'usage',
  'unauthorized',
  'forbidden',
  'database_too_new',
  'database_corrupt',
  'cancelled',
  'unsafe_path',
  'io_error',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The serialized shape of an error on the wire and in `--json` output. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** Base of all expected failures: a code, a message a user can act on, optional details. */
export class BinderyError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'BinderyError';
    this.code = code;
    this.details = details;
  }

  /** The wire form of this error. */
  toPayload(): ErrorPayload {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Input that breaks a rule of the model; the message says what to change. */
export class ValidationError extends BinderyError {
  constructor(message: string, details?: unknown) {
    super('validation_error', message, details);
    this.name = 'ValidationError';
  }
}

/** A named thing that does not exist. */
export class NotFoundError extends BinderyError {
  constructor(message: string, details?: unknown) {
    super('not_found', message, details);
    this.name = 'NotFoundError';
  }
}

/** A request that collides with existing state (duplicate name, dependents, drifted file). */
export class ConflictError extends BinderyError {
  constructor(message: string, details?: unknown) {
    super('conflict', message, details);
    this.name = 'ConflictError';
  }
}

/** A path that would leave the place Bindery is allowed to touch. */
export class UnsafePathError extends BinderyError {
  constructor(message: string, details?: unknown) {
    super('unsafe_path', message, details);
    this.name = 'UnsafePathError';
  }
}

/** Work stopped because the user asked for it. */
export class CancelledError extends BinderyError {
  constructor(message = 'Cancelled.') {
    super('cancelled', message);
    this.name = 'CancelledError';
  }
}

/** Rebuilds a typed error from its wire form. */
export function errorFromPayload(payload: ErrorPayload): BinderyError {
  switch (payload.code) {
    case 'validation_error':
      return new ValidationError(payload.message, payload.details);
    case 'not_found':
      return new NotFoundError(payload.message, payload.details);
    case 'conflict':
      return new ConflictError(payload.message, payload.details);
    case 'unsafe_path':
      return new UnsafePathError(payload.message, payload.details);
    case 'cancelled':
      return new CancelledError(payload.message);
    default:
      return new BinderyError(payload.code, payload.message, payload.details);
  }
}

/** True for a value that has the wire shape of an error. */
export function isErrorPayload(value: unknown): value is ErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.message === 'string' &&
    typeof candidate.code === 'string' &&
    (ERROR_CODES as readonly string[]).includes(candidate.code)
  );
}
