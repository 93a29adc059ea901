/**
 * The host boundary shared by Electron IPC and the web host: method name and raw input in,
 * validated with the contract's schema, API called, `{ ok, value }` or `{ ok: false, error }` out.
 * Hosts hold no logic beyond calling this.
 */
import type { z } from 'zod';
import { contract, isMethodName, type ApiHandlers, type ApiResult } from '../../shared/contract.ts';
import { BinderyError, NotFoundError, ValidationError, type ErrorPayload } from '../../shared/errors.ts';

/** Calls one method by name with untrusted input; never throws. */
export type Dispatch = (method: string, input: unknown) => Promise<ApiResult>;

/** Reports an unexpected failure (a bug, not a user error) where a developer will see it. */
export type FailureReporter = (method: string, error: unknown) => void;

/** Builds the dispatcher over an API object. */
export function createDispatcher(api: ApiHandlers, reportFailure: FailureReporter = () => undefined): Dispatch {
  return async (method, input) => {
    try {
      if (!isMethodName(method)) {
        throw new NotFoundError(`There is no API method "${method}": the app and its host are probably different versions; restart Bindery.`, { method });
      }
      const parsed = contract[method].input.safeParse(input);
      if (!parsed.success) throw invalidInput(method, parsed.error);
      const handler = api[method] as (input: unknown) => unknown;
      return { ok: true, value: await handler(parsed.data) };
    } catch (error) {
      if (!(error instanceof BinderyError)) reportFailure(method, error);
      return { ok: false, error: toErrorPayload(error) };
    }
  };
}

/** The wire form of any thrown value; unexpected ones say what to do without leaking a stack. */
export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof BinderyError) return error.toPayload();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: `Unexpected failure: ${message}. Restart Bindery, and report this if it persists.` };
}

function invalidInput(method: string, error: z.ZodError): ValidationError {
  const issues = error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message }));
  const text = issues.map((issue) => `${issue.field || 'input'}: ${issue.message}`).join('; ');
  return new ValidationError(`Invalid input for ${method}: ${text}.`, { method, issues });
}
