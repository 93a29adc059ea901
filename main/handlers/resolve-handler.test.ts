import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../testing/fixtures.ts';
import { FS_DIRECTORY_HANDLER, FsDirectoryHandler, GIT_CHECKOUT_HANDLER, GitCheckoutHandler } from './built-in-handlers.ts';
import { isStrictlyInside } from '../sandbox/provision/layout.ts';
import { clearHandlerCache, resolveHandler } from './resolve-handler.ts';

afterEach(() => clearHandlerCache());

const HANDLER_MODULE = `
export class EchoHandler {
  async resolve({ resource, slotName, access }) {
    return { slotName, resourceId: resource.id, resourceType: resource.typeName, sandboxPath: '/echo', access: access ?? 'read_only' };
  }
}
export const notAHandler = { hello: 'world' };
`;

function dataDirWith(files: Record<string, string>): { dataDir: string; handlersDir: string } {
  const dataDir = tempDir('bindery-handlers-');
  const handlersDir = path.join(dataDir, 'handlers');
  fs.mkdirSync(handlersDir);
  writeFiles(handlersDir, files);
  return { dataDir, handlersDir };
}

describe('resolveHandler', () => {
  it('resolves the built-in handlers by their fixed specifiers, without a data directory', async () => {
    expect(await resolveHandler(GIT_CHECKOUT_HANDLER)).toBeInstanceOf(GitCheckoutHandler);
    expect(await resolveHandler(FS_DIRECTORY_HANDLER)).toBeInstanceOf(FsDirectoryHandler);
  });

  it('caches handlers for the process lifetime until clearHandlerCache()', async () => {
    const first = await resolveHandler(GIT_CHECKOUT_HANDLER);
    expect(await resolveHandler(GIT_CHECKOUT_HANDLER)).toBe(first);
    clearHandlerCache();
    expect(await resolveHandler(GIT_CHECKOUT_HANDLER)).not.toBe(first);
  });

  it('loads a custom ES module handler from <data dir>/handlers', async () => {
    const { handlersDir } = dataDirWith({ 'echo.mjs': HANDLER_MODULE });
    const handler = await resolveHandler('echo.mjs:EchoHandler', { handlersDir });
    const bound = await handler.resolve({
      resource: { id: 'R1', name: 'local/x', typeName: 'custom', location: '/x', sandboxStrategy: null, description: '', createdAt: '', updatedAt: '' },
      planId: 'P',
      slotName: 'repo',
      sandboxManager: { getOrCreateSandbox: () => Promise.reject(new Error('unused')) },
      access: 'read_write',
    });
    expect(bound).toEqual({ slotName: 'repo', resourceId: 'R1', resourceType: 'custom', sandboxPath: '/echo', access: 'read_write' });
  });

  it('accepts the reference-style dotted module name for a file in the handlers folder', async () => {
    const { handlersDir } = dataDirWith({ 'my_handler.mjs': HANDLER_MODULE, 'team/tools.js': HANDLER_MODULE.replace('EchoHandler', 'TeamHandler') });
    expect(typeof (await resolveHandler('cleveragents.resource.handlers.my_handler:EchoHandler', { handlersDir })).resolve).toBe('function');
    expect(typeof (await resolveHandler('team.tools:TeamHandler', { handlersDir })).resolve).toBe('function');
  });

  it('loads a changed module afresh after clearHandlerCache()', async () => {
    const { handlersDir } = dataDirWith({ 'v.mjs': 'export class V { resolve() { return 1; } }' });
    const first = await resolveHandler('v.mjs:V', { handlersDir });
    fs.writeFileSync(path.join(handlersDir, 'v.mjs'), 'export class V { resolve() { return 2; } }');
    const future = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(handlersDir, 'v.mjs'), future, future);
    expect(await resolveHandler('v.mjs:V', { handlersDir })).toBe(first);
    clearHandlerCache();
    const second = await resolveHandler('v.mjs:V', { handlersDir });
    expect((second.resolve as unknown as () => number)()).toBe(2);
  });

  it('reports a missing module or export as not found, listing what is allowed', async () => {
    const { handlersDir } = dataDirWith({ 'echo.mjs': HANDLER_MODULE });
    await expect(resolveHandler('nope.mjs:X', { handlersDir })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('Allowed handlers') });
    await expect(resolveHandler('echo.mjs:Missing', { handlersDir })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('no export named "Missing"') });
    await expect(resolveHandler('echo.mjs:EchoHandler', { handlersDir: path.join(handlersDir, 'absent') })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reports modules that throw while loading or constructing, and exports that are not handlers', async () => {
    const { handlersDir } = dataDirWith({
      'boom.mjs': 'throw new Error("kaboom at import");',
      'ctor.mjs': 'export class C { constructor() { throw new Error("no config"); } resolve() {} }',
      'echo.mjs': HANDLER_MODULE,
    });
    await expect(resolveHandler('boom.mjs:X', { handlersDir })).rejects.toThrow(/failed to load: kaboom at import/);
    await expect(resolveHandler('ctor.mjs:C', { handlersDir })).rejects.toThrow(/could not be constructed: no config/);
    await expect(resolveHandler('echo.mjs:notAHandler', { handlersDir })).rejects.toThrow(/is not a handler/);
  });

  it('refuses anything outside the handlers folder: traversal, symlinks out, absolute paths, packages, node built-ins', async () => {
    const { dataDir, handlersDir } = dataDirWith({});
    const outside = tempDir();
    writeFiles(outside, { 'evil.mjs': HANDLER_MODULE });
    writeFiles(dataDir, { 'above.mjs': HANDLER_MODULE });
    fs.symlinkSync(path.join(outside, 'evil.mjs'), path.join(handlersDir, 'link.mjs'));
    await expect(resolveHandler('../above.mjs:EchoHandler', { handlersDir })).rejects.toMatchObject({ code: 'unsafe_path' });
    await expect(resolveHandler('link.mjs:EchoHandler', { handlersDir })).rejects.toMatchObject({
      code: 'unsafe_path',
      message: expect.stringContaining('outside the handlers folder'),
    });
    await expect(resolveHandler(`${path.join(outside, 'evil.mjs')}:EchoHandler`, { handlersDir })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(resolveHandler('node:child_process:exec', { handlersDir })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(resolveHandler('left-pad:leftPad', { handlersDir })).rejects.toMatchObject({ code: 'not_found' });
    await expect(resolveHandler('@scope/pkg:X', { handlersDir })).rejects.toThrow(/Allowed handlers: the built-in cleveragents\.resource\.handlers\.git_checkout:GitCheckoutHandler/);
    await expect(resolveHandler('no-colon', { handlersDir })).rejects.toThrow(/not of the form "module:Export"/);
    await expect(resolveHandler('custom.mjs:X')).rejects.toThrow(/need a data directory/);
  });
});

describe('isStrictlyInside', () => {
  it.each([
    ['/d/handlers', '/d/handlers/a.mjs', true],
    ['/d/handlers', '/d/handlers/sub/a.mjs', true],
    ['/d/handlers', '/d/handlers/..a.mjs', true],
    ['/d/handlers', '/d/handlers', false],
    ['/d/handlers', '/d/a.mjs', false],
    ['/d/handlers', '/d/handlers-evil/a.mjs', false],
    ['/d/handlers', '/elsewhere/a.mjs', false],
  ])('%s contains %s: %s', (root, child, expected) => expect(isStrictlyInside(root, child)).toBe(expected));
});
