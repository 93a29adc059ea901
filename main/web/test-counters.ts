/**
 * GET /__test/counters (the engine's counters, services/test-counters.ts) and DELETE (sets them
 * back to zero), served only when `bindery serve` runs with BINDERY_TEST_COUNTERS=1: a test build.
 * The token is required as for the API; without the variable the path does not exist (404).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorPayload } from '../../shared/errors.ts';
import { changeCounters, resetChangeCounters } from '../services/test-counters.ts';
import { isValidToken, SECURITY_HEADERS, TOKEN_HEADER } from './security.ts';

/** Where the counters are served. */
export const TEST_COUNTERS_PATH = '/__test/counters';

/** Whether this process serves the counters (read once, when the server starts). */
export function testCountersEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.BINDERY_TEST_COUNTERS === '1';
}

/** Answers a request under /__test/; `enabled` from testCountersEnabled. */
export function handleTestCounters(request: IncomingMessage, response: ServerResponse, pathname: string, token: string, enabled: boolean): void {
  if (!enabled || pathname !== TEST_COUNTERS_PATH) return send(response, 404, refusal('not_found', 'Not found.'));
  if (!isValidToken(request.headers[TOKEN_HEADER], token)) {
    return send(response, 401, refusal('unauthorized', 'The counters need the token from the URL that "bindery serve" printed.'));
  }
  if (request.method === 'DELETE') resetChangeCounters();
  else if (request.method !== 'GET') return send(response, 405, refusal('usage', 'The counters are read with GET and reset with DELETE.'));
  send(response, 200, changeCounters());
}

function refusal(code: ErrorPayload['code'], message: string): { ok: false; error: ErrorPayload } {
  return { ok: false, error: { code, message } };
}

function send(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(value));
}
