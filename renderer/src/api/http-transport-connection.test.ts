/**
 * The web transport's connection status (issue 22): the event stream is the heartbeat; it goes
 * offline when the host goes away, refused when the host no longer takes the token, reconnects
 * with backoff (or at once when a call gets through), and takes a silent stream for dead.
 */
import { describe, expect, it } from 'vitest';
import { HttpTransport } from './http-transport.ts';
import type { ConnectionStatus } from './transport.ts';

const BASE = 'http://127.0.0.1:9/';

/** A live event stream that ends when the request is aborted, as a browser's does, or when the host drops it. */
function liveStream(signal: AbortSignal | null | undefined, drops: Array<() => void>): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(': connected\n\n'));
      signal?.addEventListener('abort', () => controller.error(signal.reason));
      drops.push(() => controller.close());
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

/** A host that is down, answers with a stream, or refuses the token, as `mode` says at each request. */
function host() {
  const drops: Array<() => void> = [];
  const state = {
    mode: 'down' as 'down' | 'up' | 'refusing',
    streams: 0,
    calls: 0,
    /** Stops the host: open streams end, and it answers nothing more. */
    stop: () => {
      state.mode = 'down';
      for (const drop of drops.splice(0)) drop();
    },
  };
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (state.mode === 'down') throw new TypeError('Failed to fetch');
    if (state.mode === 'refusing') return Response.json({ ok: false, error: { code: 'unauthorized', message: 'token' } }, { status: 401 });
    if (String(input).endsWith('/api/events')) {
      state.streams++;
      return liveStream(init?.signal, drops);
    }
    state.calls++;
    return Response.json({ ok: true, value: [] });
  }) as typeof fetch;
  return { state, fetchImpl };
}

function watch(transport: HttpTransport): ConnectionStatus[] {
  const seen: ConnectionStatus[] = [];
  transport.onConnection((_up, status) => seen.push(status));
  return seen;
}

describe('HttpTransport connection status', () => {
  it('goes offline while the host is down, retries with backoff and is connected again when it is back, refreshing the stores', async () => {
    const { state, fetchImpl } = host();
    const transport = new HttpTransport({ baseUrl: BASE, token: 't', fetch: fetchImpl, retryMs: 5, maxRetryMs: 20 });
    const seen = watch(transport);
    const refreshed: unknown[] = [];
    const stop = transport.subscribe('registryChanged', (payload) => refreshed.push(payload));
    await expect.poll(() => seen).toEqual(['connecting', 'offline']);
    state.mode = 'up';
    await expect.poll(() => seen).toEqual(['connecting', 'offline', 'connected']);
    expect(refreshed).toEqual([]);
    state.stop();
    await expect.poll(() => seen).toEqual(['connecting', 'offline', 'connected', 'offline']);
    state.mode = 'up';
    await expect.poll(() => seen).toEqual(['connecting', 'offline', 'connected', 'offline', 'connected']);
    // Events sent while it was down are lost: every list is reloaded.
    expect(refreshed).toEqual([{ areas: ['types', 'resources', 'projects', 'tools', 'notes'], source: 'external' }]);
    stop();
    expect(seen.at(-1)).toBe('connecting');
  });

  it('says refused when the host answers but no longer accepts the token, and reconnects once it does', async () => {
    const { state, fetchImpl } = host();
    state.mode = 'refusing';
    const transport = new HttpTransport({ baseUrl: BASE, token: 't', fetch: fetchImpl, retryMs: 5, maxRetryMs: 20 });
    const seen = watch(transport);
    const stop = transport.subscribe('progress', () => undefined);
    await expect.poll(() => seen).toEqual(['connecting', 'refused']);
    state.mode = 'up';
    await expect.poll(() => seen.at(-1)).toBe('connected');
    stop();
  });

  it('reconnects at once, not at the next retry, when a call gets through', async () => {
    const { state, fetchImpl } = host();
    const transport = new HttpTransport({ baseUrl: BASE, token: 't', fetch: fetchImpl, retryMs: 60_000 });
    const seen = watch(transport);
    const stop = transport.subscribe('progress', () => undefined);
    await expect.poll(() => seen).toEqual(['connecting', 'offline']);
    state.mode = 'up';
    await transport.call('listTypes', {});
    await expect.poll(() => seen).toEqual(['connecting', 'offline', 'connected']);
    expect(state.streams).toBe(1);
    stop();
  });

  it('takes a stream silent for too long for dead and opens another', async () => {
    const { state, fetchImpl } = host();
    state.mode = 'up';
    const transport = new HttpTransport({ baseUrl: BASE, token: 't', fetch: fetchImpl, retryMs: 5, silenceMs: 40 });
    const seen = watch(transport);
    const stop = transport.subscribe('progress', () => undefined);
    await expect.poll(() => state.streams).toBeGreaterThanOrEqual(2);
    expect(seen.slice(0, 4)).toEqual(['connecting', 'connected', 'offline', 'connected']);
    stop();
  });
});
