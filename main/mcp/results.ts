/** MCP tool results: values as JSON with the reference field names, errors as `isError` results. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiResult } from '../../shared/contract.ts';
import { BinderyError, type ErrorPayload } from '../../shared/errors.ts';
import { toWire } from '../core/codec.ts';
import { toErrorPayload } from '../services/dispatch.ts';

/** A value as a tool result: pretty JSON text, in the spelling `--json` uses (DESIGN 1.7). */
export function okResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(toWire(value), null, 2) }] };
}

/** A failure as a tool result the agent reads: the message says what to do; the code travels too. */
export function errorResult(payload: ErrorPayload): CallToolResult {
  return {
    content: [{ type: 'text', text: payload.message }],
    structuredContent: { error: { code: payload.code, message: payload.message } },
    isError: true,
  };
}

/** Unwraps a dispatch outcome, rethrowing its error as a typed one. */
export function unwrap<T>(result: ApiResult): T {
  if (result.ok) return result.value as T;
  throw new BinderyError(result.error.code, result.error.message, result.error.details);
}

/** Runs a tool body and turns what it returns or throws into a result; never throws. */
export async function toolResult(run: () => unknown): Promise<CallToolResult> {
  try {
    return okResult(await run());
  } catch (error) {
    return errorResult(toErrorPayload(error));
  }
}
