import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { freshBindery } from '../testing/registry.ts';
import { startApiRuntime } from '../services/api-runtime.ts';
import { count, resetChangeCounters } from '../sandbox/changes/counters.ts';
import { startWebServer, type WebServer } from './server.ts';

/** A real request to the counters, with or without the token. */
function counters(server: WebServer, method: string, token: string | null): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${server.port}`, ...(token === null ? {} : { 'X-Bindery-Token': token }) };
    const req = http.request({ host: '127.0.0.1', port: server.port, path: '/__test/counters', method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) as unknown }));
    });
    req.on('error', reject);
    req.end();
  });
}

const stops: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  delete process.env.BINDERY_TEST_COUNTERS;
});

/** `bindery serve` as its command starts it, with BINDERY_TEST_COUNTERS set to `flag` (or unset). */
async function serve(flag: string | undefined): Promise<WebServer> {
  if (flag === undefined) delete process.env.BINDERY_TEST_COUNTERS;
  else process.env.BINDERY_TEST_COUNTERS = flag;
  const bindery = freshBindery();
  const runtime = startApiRuntime({ bindery, host: 'web', pollMs: 60_000 });
  const server = await startWebServer({ runtime, rendererDir: path.join(tempDir(), 'renderer') });
  stops.push(() => bindery.close(), () => runtime.stop(), () => server.close());
  return server;
}

describe('GET /__test/counters', () => {
  it('answers with the engine counters in a test build, with the token only, and DELETE resets them', async () => {
    const server = await serve('1');
    resetChangeCounters();
    count('sidesRead', 2);
    expect(await counters(server, 'GET', null)).toMatchObject({ status: 401 });
    expect(await counters(server, 'GET', 'wrong')).toMatchObject({ status: 401 });
    expect(await counters(server, 'GET', server.token)).toEqual({ status: 200, body: { sidesRead: 2, detections: 0, countedOffThread: 0 } });
    expect(await counters(server, 'DELETE', server.token)).toEqual({ status: 200, body: { sidesRead: 0, detections: 0, countedOffThread: 0 } });
    expect(await counters(server, 'POST', server.token)).toMatchObject({ status: 405 });
  });

  it('does not exist otherwise (404, token or not)', async () => {
    for (const flag of [undefined, '0']) {
      const server = await serve(flag);
      expect(await counters(server, 'GET', server.token)).toMatchObject({ status: 404, body: { ok: false } });
      expect(await counters(server, 'DELETE', server.token)).toMatchObject({ status: 404 });
    }
  });
});
