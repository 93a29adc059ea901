import { describe, expect, it } from 'vitest';
import { eventChannel, HOST_CHANNELS, methodChannel, subscriberName } from '../shared/bridge.ts';
import { METHOD_NAMES } from '../shared/contract.ts';
import { EVENT_NAMES } from '../shared/events.ts';
import { buildBridge } from './bridge-builder.ts';

function fakeIpc() {
  const invoked: Array<[string, unknown]> = [];
  const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
  return {
    invoked,
    listeners,
    deps: {
      invoke: async (channel: string, input?: unknown) => {
        invoked.push([channel, input]);
        return { ok: true, value: channel };
      },
      on: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
        listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener));
      },
      off: (channel: string, listener: (event: unknown, payload: unknown) => void) => void listeners.get(channel)?.delete(listener),
      getPathForFile: () => '/dropped/folder',
    },
  };
}

describe('buildBridge', () => {
  it('exposes exactly one function per method and per event, plus host, and no generic invoke', () => {
    const bridge = buildBridge(fakeIpc().deps) as unknown as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual([...METHOD_NAMES, ...EVENT_NAMES.map(subscriberName), 'host'].sort());
    expect(bridge).not.toHaveProperty('invoke');
    expect(Object.keys(bridge.host as object).sort()).toEqual(['getPathForFile', 'openExternal', 'pickFolder']);
  });

  it('sends each method on its own channel', async () => {
    const ipc = fakeIpc();
    const bridge = buildBridge(ipc.deps);
    await bridge.listTypes();
    await bridge.showTool({ ref: 'x' });
    await bridge.host.pickFolder();
    await bridge.host.openExternal('https://example.com');
    expect(ipc.invoked).toEqual([
      [methodChannel('listTypes'), {}],
      [methodChannel('showTool'), { ref: 'x' }],
      [HOST_CHANNELS.pickFolder, undefined],
      [HOST_CHANNELS.openExternal, 'https://example.com'],
    ]);
  });

  it('delivers payloads (never the IPC event) and unsubscribes', () => {
    const ipc = fakeIpc();
    const bridge = buildBridge(ipc.deps);
    const seen: unknown[] = [];
    const off = bridge.onRegistryChanged((payload) => seen.push(payload));
    const channel = eventChannel('registryChanged');
    for (const listener of ipc.listeners.get(channel)!) listener({ sender: 'secret' }, { areas: ['tools'], source: 'app' });
    expect(seen).toEqual([{ areas: ['tools'], source: 'app' }]);
    off();
    expect(ipc.listeners.get(channel)?.size).toBe(0);
  });

  it('returns dropped-file paths from webUtils', () => {
    expect(buildBridge(fakeIpc().deps).host.getPathForFile({} as File)).toBe('/dropped/folder');
  });
});
