import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { freshBindery } from '../testing/registry.ts';
import { startApiRuntime, type ApiRuntime } from '../services/api-runtime.ts';
import type { Bindery } from '../services/bindery.ts';
import { startWebServer, type WebServer } from './server.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP request with full control of the headers (fetch cannot set Host). */
function request(server: WebServer, options: { path?: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: options.path ?? '/',
        method: options.method ?? 'GET',
        headers: { Host: `127.0.0.1:${server.port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const api = (server: WebServer, method: string, input: unknown, headers: Record<string, string> = {}) =>
  request(server, {
    path: `/api/${method}`,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Bindery-Token': server.token, ...headers },
    body: JSON.stringify(input),
  });

let bindery: Bindery;
let runtime: ApiRuntime;
let server: WebServer;
let rendererDir: string;

beforeEach(async () => {
  bindery = freshBindery();
  runtime = startApiRuntime({ bindery, host: 'web', pollMs: 60_000 });
  const root = tempDir();
  rendererDir = path.join(root, 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Bindery</title>');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'secret');
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(rendererDir, 'leak.txt'));
  server = await startWebServer({ runtime, rendererDir });
});

afterEach(async () => {
  await server.close();
  runtime.stop();
  bindery.close();
});

describe('bindery serve: guards', () => {
  it('prints a loopback URL that carries a random token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
  });

  it('refuses API calls and events without the token, or with a wrong one', async () => {
    const none = await request(server, { path: '/api/listTypes', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ ok: false, error: { message: expect.stringMatching(/token/) } });
    expect((await api(server, 'listTypes', {}, { 'X-Bindery-Token': 'wrong' })).status).toBe(401);
    expect((await request(server, { path: '/api/events' })).status).toBe(401);
    expect((await request(server, { path: `/api/listTypes?token=${server.token}`, method: 'POST', headers: { 'Content-Type': 'application/json' } })).status).toBe(401);
  });

  it('refuses a wrong Host header (DNS rebinding), even with the token', async () => {
    for (const host of ['evil.com', `evil.com:${server.port}`, `127.0.0.1:${server.port + 1}`, '127.0.0.1']) {
      const answer = await api(server, 'listTypes', {}, { Host: host });
      expect(answer.status, host).toBe(421);
    }
    expect((await request(server, { path: '/', headers: { Host: 'evil.com' } })).status).toBe(421);
    expect((await api(server, 'listTypes', {}, { Host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('refuses a foreign Origin, even with the token, and accepts the same origin', async () => {
    for (const origin of ['http://evil.com', 'null', `https://127.0.0.1:${server.port}`, `http://localhost:${server.port}`]) {
      expect((await api(server, 'listTypes', {}, { Origin: origin })).status, origin).toBe(403);
    }
    expect((await api(server, 'listTypes', {}, { Origin: `http://127.0.0.1:${server.port}` })).status).toBe(200);
  });

  it('refuses to bind a non-loopback host', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'example.com']) {
      await expect(startWebServer({ runtime, rendererDir, host })).rejects.toThrow(/loopback only/);
    }
  });

  it('sends the security headers and never CORS headers', async () => {
    for (const answer of [await request(server, { path: '/' }), await api(server, 'listTypes', {}), await request(server, { path: '/api/listTypes', method: 'OPTIONS' })]) {
      expect(answer.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('accepts only POST with JSON for methods and bounds the body size', async () => {
    expect((await request(server, { path: '/api/listTypes', headers: { 'X-Bindery-Token': server.token } })).status).toBe(405);
    const form = await request(server, {
      path: '/api/listTypes',
      method: 'POST',
      headers: { 'X-Bindery-Token': server.token, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(form.status).toBe(415);
    const huge = await api(server, 'importTools', { text: 'x'.repeat(5 * 1024 * 1024), fileName: 'x.yaml' });
    expect(huge.status).toBe(413);
    const bad = await request(server, { path: '/api/listTypes', method: 'POST', headers: { 'X-Bindery-Token': server.token, 'Content-Type': 'application/json' }, body: '{' });
    expect(bad.status).toBe(400);
  });
});

describe('bindery serve: API, events and files', () => {
  it('calls methods through the dispatcher and returns envelopes, errors included', async () => {
    const types = JSON.parse((await api(server, 'listTypes', {})).body);
    expect(types.ok).toBe(true);
    expect(types.value.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['git-checkout', 'fs-directory']));
    expect(JSON.parse((await api(server, 'showTool', { ref: 'nope' })).body)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(JSON.parse((await api(server, 'nope', {})).body)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(JSON.parse((await api(server, 'addProject', { name: 7 })).body)).toMatchObject({ ok: false, error: { code: 'validation_error' } });
  });

  it('streams registry changes as server-sent events', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port: server.port, path: '/api/events', headers: { Host: `127.0.0.1:${server.port}`, 'X-Bindery-Token': server.token } },
        (res) => {
          expect(res.headers['content-type']).toMatch(/text\/event-stream/);
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            if (text.includes(': connected') && !text.includes('event:')) void api(server, 'addProject', { name: 'demo' });
            if (text.includes('\n\nevent: registryChanged')) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', reject);
    });
    expect(received).toContain('event: registryChanged\ndata: {"areas":["projects"],"source":"app"}');
  });

  it('serves the renderer, falls back to index.html for app routes, and stays inside its folder', async () => {
    const index = await request(server, { path: '/' });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(index.body).toContain('<title>Bindery</title>');
    const script = await request(server, { path: '/assets/app.js' });
    expect(script.headers['content-type']).toMatch(/text\/javascript/);
    expect((await request(server, { path: '/projects/demo' })).body).toContain('<title>Bindery</title>');
    expect((await request(server, { path: '/assets/missing.js' })).status).toBe(404);
    for (const sneaky of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/leak.txt', '/%00', '/..%5csecret.txt', '/%E0%A4%A']) {
      const answer = await request(server, { path: sneaky });
      expect(answer.body, sneaky).not.toContain('secret');
      expect([400, 404], sneaky).toContain(answer.status);
    }
    expect((await request(server, { path: '/', method: 'DELETE' })).status).toBe(405);
  });

  it('says how to build the renderer when it is not built', async () => {
    const empty = await startWebServer({ runtime, rendererDir: path.join(tempDir(), 'missing') });
    try {
      const answer = await request(empty, { path: '/' });
      expect(answer.status).toBe(503);
      expect(answer.body).toContain('npm run build');
      expect(JSON.parse((await api(empty, 'listTypes', {})).body).ok).toBe(true);
    } finally {
      await empty.close();
    }
  });
});
