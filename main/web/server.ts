/**
 * `bindery serve`: the renderer and the API contract over HTTP on loopback only (DESIGN.md 3.4).
 * Every request passes the guards in security.ts first; API calls go through the shared
 * dispatcher, events through SSE. No domain logic lives here.
 */
import { createReadStream } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BinderyError, type ErrorPayload } from '../../shared/errors.ts';
import type { ApiRuntime } from '../services/api-runtime.ts';
import { openEventStream } from './event-stream.ts';
import {
  allowedHosts,
  isAllowedHost,
  isAllowedOrigin,
  isLoopbackAddress,
  isValidToken,
  loopbackBindAddress,
  newToken,
  SECURITY_HEADERS,
  TOKEN_HEADER,
} from './security.ts';
import { NOT_BUILT_PAGE, resolveStatic } from './static-files.ts';
import { handleTestCounters, testCountersEnabled } from './test-counters.ts';

/** The most a request body may hold: a 1 MB tool file, JSON-escaped, fits. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** How long close() lets requests in flight finish before it cuts their connections. */
export const CLOSE_GRACE_MS = 700;

/** How to start the web host. */
export interface WebServerOptions {
  runtime: Pick<ApiRuntime, 'dispatch' | 'events'>;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** Must be loopback; default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token for tests; a random one otherwise. */
  token?: string;
  /** Serve the engine's counters at /__test/counters (default: BINDERY_TEST_COUNTERS=1, a test build). */
  testCounters?: boolean;
}

/** A running web host. */
export interface WebServer {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /**
   * Stops accepting, ends the event streams and idle keep-alive connections, lets requests in
   * flight finish for up to `graceMs`, then cuts what is left.
   */
  close(graceMs?: number): Promise<void>;
}

/** Starts the server; refuses a non-loopback host before binding anything. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const requested = options.host ?? '127.0.0.1';
  const bindAddress = loopbackBindAddress(requested);
  if (!bindAddress) {
    throw new BinderyError(
      'usage',
      `bindery serve listens on loopback only, and "${requested}" is not a loopback address: use --host 127.0.0.1 (or ::1), and reach it from elsewhere through an SSH tunnel.`,
    );
  }
  const token = options.token ?? newToken();
  const testCounters = options.testCounters ?? testCountersEnabled();
  const state: ServerState = { allowed: [], closing: false, inFlight: 0, streams: new Set() };
  const server = http.createServer((request, response) => {
    if (state.closing) {
      response.setHeader('Connection', 'close');
      return sendError(response, 503, refusal('Bindery is stopping: start it again, and this page reconnects by itself.', 'io_error'));
    }
    state.inFlight++;
    response.once('close', () => state.inFlight--);
    handle(request, response, { ...options, token, allowed: state.allowed, streams: state.streams, testCounters }).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, { code: 'internal', message: `The server failed: ${(error as Error).message}` });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new BinderyError('usage', `Port ${options.port} is already in use: pick another with --port, or --port 0 for any free one.`)
          : error,
      ),
    );
    server.listen(options.port ?? 0, bindAddress, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  state.allowed = allowedHosts(bindAddress, port);
  const origin = `http://${state.allowed[0]}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    close: (graceMs = CLOSE_GRACE_MS) => closeGracefully(server, state, graceMs),
  };
}

interface ServerState {
  allowed: string[];
  closing: boolean;
  /** Requests whose response has not finished, event streams included until they end. */
  inFlight: number;
  streams: Set<ServerResponse>;
}

interface RequestContext extends WebServerOptions {
  token: string;
  allowed: string[];
  streams: Set<ServerResponse>;
}

async function closeGracefully(server: http.Server, state: ServerState, graceMs: number): Promise<void> {
  state.closing = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // An ended stream tells each page at once that the host went away; it retries on its own.
  for (const stream of state.streams) stream.end();
  const deadline = Date.now() + graceMs;
  while (state.inFlight > 0 && Date.now() < deadline) {
    // A keep-alive connection goes idle when its request finishes: close it then, not before.
    server.closeIdleConnections();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  server.closeAllConnections();
  await closed;
}

async function handle(request: IncomingMessage, response: ServerResponse, context: RequestContext): Promise<void> {
  if (!isLoopbackAddress(request.socket.remoteAddress)) {
    return sendError(response, 403, refusal('Requests are accepted from this machine only.', 'forbidden'));
  }
  if (!isAllowedHost(request.headers.host, context.allowed)) {
    return sendError(response, 421, refusal(`Unexpected Host header: open Bindery at http://${context.allowed[0]}/ as printed by "bindery serve".`, 'forbidden'));
  }
  if (!isAllowedOrigin(request.headers.origin, request.headers.host)) {
    return sendError(response, 403, refusal('Requests from other sites are refused.', 'forbidden'));
  }
  const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return handleApi(request, response, url, context);
  if (url.pathname.startsWith('/__test/')) return handleTestCounters(request, response, url.pathname, context.token, context.testCounters === true);
  if (request.method !== 'GET' && request.method !== 'HEAD') return sendError(response, 405, refusal('Only GET is served outside /api/.'));
  return serveStatic(request, response, url.pathname, context.rendererDir);
}

async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL, context: RequestContext): Promise<void> {
  if (!isValidToken(request.headers[TOKEN_HEADER], context.token)) {
    return sendError(response, 401, refusal('The API needs the token from the URL that "bindery serve" printed: open that URL again.', 'unauthorized'));
  }
  const name = url.pathname.slice('/api/'.length);
  if (name === 'events') {
    if (request.method !== 'GET') return sendError(response, 405, refusal('Events are read with GET.'));
    context.streams.add(response);
    response.once('close', () => context.streams.delete(response));
    return openEventStream(response, context.runtime.events, SECURITY_HEADERS);
  }
  if (request.method !== 'POST') return sendError(response, 405, refusal('API methods are called with POST.'));
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    return sendError(response, 415, refusal('API calls send JSON: set Content-Type: application/json.'));
  }
  const body = await readBody(request);
  if (body === null) return sendError(response, 413, refusal(`The request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`));
  let input: unknown;
  try {
    input = body.length === 0 ? {} : JSON.parse(body);
  } catch {
    return sendError(response, 400, { code: 'validation_error', message: 'The request body is not valid JSON.' });
  }
  sendJson(response, 200, await context.runtime.dispatch(name, input));
}

async function serveStatic(request: IncomingMessage, response: ServerResponse, pathname: string, root: string): Promise<void> {
  const answer = await resolveStatic(root, pathname);
  switch (answer.kind) {
    case 'bad-request':
      return sendText(response, 400, 'Bad path.');
    case 'not-found':
      return sendText(response, 404, 'Not found.');
    case 'not-built':
      response.writeHead(503, { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(NOT_BUILT_PAGE);
      return;
    case 'file':
      response.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': answer.contentType, 'Cache-Control': 'no-cache' });
      if (request.method === 'HEAD') {
        response.end();
        return;
      }
      createReadStream(answer.file)
        .on('error', () => response.destroy())
        .pipe(response);
  }
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is drained, not stored, so the 413 answer still reaches the client.
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function refusal(message: string, code: ErrorPayload['code'] = 'usage'): ErrorPayload {
  return { code, message };
}

function sendError(response: ServerResponse, status: number, error: ErrorPayload): void {
  sendJson(response, status, { ok: false, error });
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(value));
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(text);
}
