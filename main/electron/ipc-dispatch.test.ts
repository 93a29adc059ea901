import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOST_CHANNELS, methodChannel } from '../../shared/bridge.ts';
import { METHOD_NAMES } from '../../shared/contract.ts';
import { freshBindery } from '../testing/registry.ts';
import { startApiRuntime, type ApiRuntime } from '../services/api-runtime.ts';
import type { Bindery } from '../services/bindery.ts';
import { ipcHandlers, REFUSED } from './ipc-dispatch.ts';
import { appUrlPredicate, type IpcEventLike } from './sender-check.ts';

const INDEX = 'file:///app/out/renderer/index.html';
const frame = { url: INDEX, parent: null };
const trusted: IpcEventLike = { sender: { id: 1 }, senderFrame: frame };
const foreignFrame = { url: 'https://evil.example/', parent: null };
const foreign: IpcEventLike = { sender: { id: 1 }, senderFrame: foreignFrame };
const otherWindow: IpcEventLike = { sender: { id: 2 }, senderFrame: frame };

let bindery: Bindery;
let runtime: ApiRuntime;
let opened: string[];
let refused: string[];
let handlers: ReturnType<typeof ipcHandlers>;

beforeEach(() => {
  bindery = freshBindery();
  runtime = startApiRuntime({ bindery, host: 'electron', pollMs: 60_000 });
  opened = [];
  refused = [];
  handlers = ipcHandlers({
    dispatch: runtime.dispatch,
    policy: { trustedIds: new Set([1]), isAppUrl: appUrlPredicate(INDEX) },
    pickFolder: async () => '/picked',
    openExternal: async (url) => void opened.push(url),
    onRefused: (channel) => void refused.push(channel),
  });
});
afterEach(() => {
  runtime.stop();
  bindery.close();
});

const call = (channel: string, event: IpcEventLike, input?: unknown) => handlers.get(channel)!(event, input);

describe('ipcHandlers over fake events', () => {
  it('has one channel per contract method plus the host channels, and nothing else', () => {
    expect([...handlers.keys()].sort()).toEqual([...METHOD_NAMES.map(methodChannel), ...Object.values(HOST_CHANNELS)].sort());
  });

  it('dispatches a trusted call through the contract, with validation', async () => {
    const created = await call(methodChannel('addProject'), trusted, { name: 'demo' });
    expect(created).toMatchObject({ ok: true, value: { name: 'demo' } });
    expect(await call(methodChannel('addProject'), trusted, { name: 3 })).toMatchObject({ ok: false, error: { code: 'validation_error' } });
    expect(await call(methodChannel('appInfo'), trusted, {})).toMatchObject({ ok: true, value: { host: 'electron' } });
  });

  it('refuses every channel from a foreign page or another window, before any work', async () => {
    for (const [channel] of handlers) {
      for (const event of [foreign, otherWindow]) {
        const answer = await call(channel, event, { name: 'evil' });
        expect(answer, channel).toEqual(channel === HOST_CHANNELS.pickFolder ? null : channel === HOST_CHANNELS.openExternal ? false : REFUSED);
      }
    }
    expect(bindery.registry.listProjects()).toEqual([]);
    expect(refused).toHaveLength(handlers.size * 2);
  });

  it('opens only https links, and picks folders for trusted callers', async () => {
    expect(await call(HOST_CHANNELS.openExternal, trusted, 'https://example.com/docs')).toBe(true);
    expect(await call(HOST_CHANNELS.openExternal, trusted, 'file:///etc/passwd')).toBe(false);
    expect(await call(HOST_CHANNELS.openExternal, trusted, { url: 'https://x' })).toBe(false);
    expect(opened).toEqual(['https://example.com/docs']);
    expect(await call(HOST_CHANNELS.pickFolder, trusted)).toBe('/picked');
  });
});
