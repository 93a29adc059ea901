import { describe, expect, it } from 'vitest';
import { appUrlPredicate, isTrustedSender, type IpcEventLike } from './sender-check.ts';

const INDEX = 'file:///opt/bindery/out/renderer/index.html';
const policy = { trustedIds: new Set([7]), isAppUrl: appUrlPredicate(INDEX) };

function event(overrides: { id?: number; url?: string; parent?: unknown; noFrame?: boolean } = {}): IpcEventLike {
  const frame = { url: overrides.url ?? `${INDEX}#/resources`, parent: overrides.parent ?? null };
  return { sender: { id: overrides.id ?? 7 }, senderFrame: overrides.noFrame ? null : frame };
}

describe('isTrustedSender', () => {
  it('trusts the main frame of the app window on the app page (any route or query)', () => {
    expect(isTrustedSender(event(), policy)).toBe(true);
    expect(isTrustedSender(event({ url: `${INDEX}?x=1` }), policy)).toBe(true);
  });

  it.each([
    ['another webContents', { id: 8 }],
    ['a sub-frame (has a parent)', { parent: {} }],
    ['a nested sub-frame on the app page', { parent: { url: INDEX, parent: null } }],
    ['a destroyed frame', { noFrame: true }],
    ['a remote page', { url: 'https://evil.example/index.html' }],
    ['another local file', { url: 'file:///tmp/evil.html' }],
    ['a file with the same name elsewhere', { url: 'file:///tmp/out/renderer/index.html' }],
    ['a data URL', { url: 'data:text/html,hi' }],
    ['about:blank', { url: 'about:blank' }],
    ['garbage', { url: 'not a url' }],
  ])('refuses %s', (_why, overrides) => {
    expect(isTrustedSender(event(overrides), policy)).toBe(false);
  });
});
