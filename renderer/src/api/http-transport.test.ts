import { describe, expect, it } from 'vitest';
import { BinderyError } from '../../../shared/errors.ts';
import { HttpTransport } from './http-transport.ts';

interface Sent {
  url: string;
  init: RequestInit | undefined;
}

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

function fakeFetch(answer: (url: string, init?: RequestInit) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(input), init });
    return answer(String(input), init);
  }) as typeof fetch;
  return { sent, fetchImpl };
}

describe('HttpTransport', () => {
  it('POSTs JSON to api/<method> with the token header and returns the envelope', async () => {
    const { sent, fetchImpl } = fakeFetch(() => Response.json({ ok: true, value: 1 }));
    const transport = new HttpTransport({ baseUrl: 'http://127.0.0.1:9/', token: 'tok', fetch: fetchImpl });
    expect(await transport.call('showTool', { ref: 'x' })).toEqual({ ok: true, value: 1 });
    expect(sent[0]?.url).toBe('http://127.0.0.1:9/api/showTool');
    expect(sent[0]?.init).toMatchObject({ method: 'POST', body: '{"ref":"x"}', headers: { 'X-Bindery-Token': 'tok', 'Content-Type': 'application/json' } });
  });

  it('turns an unreachable host and a non-JSON answer into typed errors', async () => {
    const down = new HttpTransport({ baseUrl: 'http://127.0.0.1:9/', token: null, fetch: (async () => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch });
    await expect(down.call('listTypes', {})).rejects.toMatchObject({ code: 'io_error', message: expect.stringMatching(/reconnects by itself/) });
    const html = new HttpTransport({ baseUrl: 'http://127.0.0.1:9/', token: null, fetch: fakeFetch(() => new Response('<html>', { status: 502 })).fetchImpl });
    await expect(html.call('listTypes', {})).rejects.toBeInstanceOf(BinderyError);
  });

  it('delivers server-sent events to subscribers of that event only', async () => {
    const { sent, fetchImpl } = fakeFetch(
      () =>
        new Response(streamOf([': connected\n\n', 'event: registryChanged\ndata: {"areas":["tools"],', '"source":"external"}\n\n', 'event: unknown\ndata: {}\n\n']), {
          headers: { 'Content-Type': 'text/event-stream' },
        }),
    );
    const transport = new HttpTransport({ baseUrl: 'http://127.0.0.1:9/', token: 'tok', fetch: fetchImpl, retryMs: 60_000 });
    const progress: unknown[] = [];
    transport.subscribe('progress', (payload) => progress.push(payload));
    const changed = await new Promise((resolve) => transport.subscribe('registryChanged', resolve));
    expect(changed).toEqual({ areas: ['tools'], source: 'external' });
    expect(progress).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('http://127.0.0.1:9/api/events');
    expect(sent[0]?.init?.headers).toMatchObject({ 'X-Bindery-Token': 'tok' });
  });

  it('reports the stream up while it is connected, and down when it ends', async () => {
    let end: () => void = () => undefined;
    const { fetchImpl } = fakeFetch(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(': connected\n\n'));
              end = () => controller.close();
            },
          }),
          { headers: { 'Content-Type': 'text/event-stream' } },
        ),
    );
    const transport = new HttpTransport({ baseUrl: 'http://127.0.0.1:9/', token: null, fetch: fetchImpl, retryMs: 60_000 });
    const states: boolean[] = [];
    transport.onConnection((up) => states.push(up));
    const stop = transport.subscribe('progress', () => undefined);
    await expect.poll(() => states).toEqual([false, true]);
    end();
    await expect.poll(() => states).toEqual([false, true, false]);
    stop();
  });

  it('opens links only for https, and has no native picker', async () => {
    const opened: string[] = [];
    const transport = new HttpTransport({ baseUrl: 'http://127.0.0.1:9/', token: null, openWindow: (url) => opened.push(url) });
    expect(await transport.host.openExternal('https://example.com')).toBe(true);
    expect(await transport.host.openExternal('javascript:alert(1)')).toBe(false);
    expect(opened).toEqual(['https://example.com']);
    expect(transport.host.canPickFolder).toBe(false);
    expect(await transport.host.pickFolder()).toBeNull();
  });
});
