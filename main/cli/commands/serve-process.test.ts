/**
 * `bindery serve` as a real process (issue 22): the first SIGINT or SIGTERM stops it within a
 * second with status 0, and `--keep-token` keeps a private token that the next start reuses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliArgs } from '../../testing/cli-process.ts';
import { tempDir } from '../../testing/fixtures.ts';

const URL_PATTERN = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)/;
const posix = process.platform !== 'win32';

interface Serve {
  child: ChildProcess;
  port: number;
  token: string;
  output: () => string;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function serve(dataDir: string, ...args: string[]): Promise<Serve> {
  const child = spawn(process.execPath, cliArgs(dataDir, ['serve', ...args]), { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = () => {
      const found = URL_PATTERN.exec(output);
      if (found) {
        child.stdout!.off('data', onData);
        resolve(found);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`bindery serve exited (${code}) before printing its URL:\n${output}`)));
  });
  return { child, port: Number(match[1]), token: match[2]!, output: () => output };
}

/** Opens the event stream as a page does; resolves once connected, with a promise of its end. */
function openEvents(port: number, token: string): Promise<{ end: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const headers = { Host: `127.0.0.1:${port}`, 'X-Bindery-Token': token };
    http
      .get({ host: '127.0.0.1', port, path: '/api/events', headers }, (res) => {
        res.resume();
        resolve({ end: new Promise((ended) => res.once('close', () => ended())) });
      })
      .on('error', reject);
  });
}

/** Sends `signal` and resolves with the exit status and how long the process took to end. */
function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  return new Promise((resolve) => {
    const sent = performance.now();
    child.once('exit', (code) => resolve({ code, ms: performance.now() - sent }));
    child.kill(signal);
  });
}

describe.skipIf(!posix)('bindery serve as a process', () => {
  it('stops on the first SIGINT within a second, keeps a private token and reuses it on the same port', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir, '--port', '0', '--keep-token');
    const tokenFile = path.join(dataDir, 'serve-token');
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(tokenFile, 'utf8').trim()).toBe(first.token);
    expect(first.output()).toContain(tokenFile);
    const events = await openEvents(first.port, first.token);
    const stopped = await stop(first.child, 'SIGINT');
    expect(stopped.code, first.output()).toBe(0);
    expect(stopped.ms).toBeLessThan(1000);
    await events.end;

    const second = await serve(dataDir, '--port', String(first.port), '--keep-token');
    expect(second.port).toBe(first.port);
    expect(second.token).toBe(first.token);
    const again = await stop(second.child, 'SIGTERM');
    expect(again).toMatchObject({ code: 0 });
    expect(again.ms).toBeLessThan(1000);
  }, 90_000);

  it('uses a fresh token each start without --keep-token, and writes no file', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir);
    await stop(first.child, 'SIGTERM');
    const second = await serve(dataDir);
    expect(second.token).not.toBe(first.token);
    expect(fs.existsSync(path.join(dataDir, 'serve-token'))).toBe(false);
    expect((await stop(second.child, 'SIGINT')).code).toBe(0);
  }, 90_000);
});
