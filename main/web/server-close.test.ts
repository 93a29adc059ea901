/**
 * Stopping the web host (issue 22): close() stops accepting at once, ends the event streams and
 * idle keep-alive connections, lets a request in flight finish, and cuts one that outlasts the grace.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiResult } from '../../shared/contract.ts';
import { EventBus } from '../services/event-bus.ts';
import { tempDir } from '../testing/fixtures.ts';
import { startWebServer, type WebServer } from './server.ts';

const servers: WebServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close(0)));
});

/** A server whose every call takes `callMs` to answer (a slow commit, say). */
async function slowServer(callMs: number): Promise<WebServer> {
  const runtime = {
    events: new EventBus(),
    dispatch: async (method: string): Promise<ApiResult> => {
      await new Promise((resolve) => setTimeout(resolve, callMs));
      return { ok: true, value: `${method} done` };
    },
  };
  const server = await startWebServer({ runtime, rendererDir: tempDir() });
  servers.push(server);
  return server;
}

function call(server: WebServer, agent?: http.Agent | false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/api/commitPlan',
        method: 'POST',
        agent,
        headers: { Host: `127.0.0.1:${server.port}`, 'Content-Type': 'application/json', 'X-Bindery-Token': server.token },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

/** Opens the event stream; resolves once it is connected, with a promise of its end. */
function openStream(server: WebServer): Promise<{ end: Promise<string> }> {
  return new Promise((connected, reject) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { Host: `127.0.0.1:${server.port}`, 'X-Bindery-Token': server.token } }, (res) => {
      res.resume();
      connected({
        end: new Promise((ended) => {
          res.on('end', () => ended('ended'));
          res.on('error', () => ended('broken'));
        }),
      });
    });
    req.on('error', reject);
  });
}

describe('WebServer.close', () => {
  it('ends event streams, lets a call in flight finish and refuses new connections, within a second', async () => {
    const server = await slowServer(300);
    const stream = await openStream(server);
    const inFlight = call(server);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const closing = server.close();
    expect(await stream.end).toBe('ended');
    await expect(call(server, false)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(await inFlight).toEqual({ status: 200, body: JSON.stringify({ ok: true, value: 'commitPlan done' }) });
    await closing;
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('does not wait for an idle keep-alive connection, and cuts a call that outlasts the grace', async () => {
    const idle = await slowServer(0);
    const agent = new http.Agent({ keepAlive: true });
    try {
      expect((await call(idle, agent)).status).toBe(200);
      const started = performance.now();
      await idle.close(5000);
      expect(performance.now() - started).toBeLessThan(500);
    } finally {
      agent.destroy();
    }

    const stuck = await slowServer(10_000);
    const inFlight = call(stuck).catch((error: NodeJS.ErrnoException) => error.code);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await stuck.close(200);
    expect(performance.now() - started).toBeLessThan(800);
    expect(await inFlight).toBe('ECONNRESET');
  });
});
