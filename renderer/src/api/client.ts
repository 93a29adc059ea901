/**
 * Builds the typed API object from a transport: one function per contract method, each
 * unwrapping the result envelope and rebuilding typed errors (shared/errors.ts).
 */
import { METHOD_NAMES, type ApiResult, type BinderyApi, type MethodName } from '../../../shared/contract.ts';
import { BinderyError, errorFromPayload, isErrorPayload } from '../../../shared/errors.ts';
import type { Transport } from './transport.ts';

/** The typed API over one transport. */
export function createApi(transport: Transport): BinderyApi {
  const api: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const method of METHOD_NAMES) {
    api[method] = async (input?: unknown) => unwrap(method, await transport.call(method, input ?? {}));
  }
  return api as unknown as BinderyApi;
}

/** The value of a result, or its error rebuilt as a typed BinderyError. */
export function unwrap(method: MethodName, result: ApiResult): unknown {
  if (result && typeof result === 'object' && 'ok' in result) {
    if (result.ok) return result.value;
    if (isErrorPayload(result.error)) throw errorFromPayload(result.error);
  }
  throw new BinderyError('internal', `The app returned an unreadable answer to ${method}: reload the window; if it persists, restart Bindery.`);
}
