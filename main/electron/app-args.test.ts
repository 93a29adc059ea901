import { describe, expect, it } from 'vitest';
import { parseAppArgs } from './app-args.ts';
import { chooseNativeBinding, nativeBindingCandidates } from './native-binding.ts';

describe('parseAppArgs', () => {
  it('reads --data-dir in both spellings among Chromium switches', () => {
    expect(parseAppArgs(['/usr/bin/electron', '.', '--no-sandbox', '--data-dir', '/tmp/d'])).toEqual({ dataDir: '/tmp/d', cli: null });
    expect(parseAppArgs(['bindery-app', '--data-dir=/tmp/e'])).toEqual({ dataDir: '/tmp/e', cli: null });
    expect(parseAppArgs(['bindery-app', '--data-dir'])).toEqual({ dataDir: undefined, cli: null });
  });

  it('hands everything after --cli to the command line', () => {
    expect(parseAppArgs(['bindery-app', '--ozone-platform=headless', '--cli', 'resources', 'list', '--data-dir', '/x'])).toEqual({
      dataDir: undefined,
      cli: ['resources', 'list', '--data-dir', '/x'],
    });
  });
});

describe('native binding', () => {
  it('prefers the env override, then the packaged copy beside app.asar', () => {
    const candidates = nativeBindingCandidates({ env: { BINDERY_SQLITE_BINDING: '/b/x.node' }, isPackaged: true, appPath: '/opt/B/resources/app.asar' });
    expect(candidates).toEqual(['/b/x.node', '/opt/B/resources/app.asar.unpacked/native/better_sqlite3.node', '/opt/B/resources/app.asar/native/better_sqlite3.node']);
    expect(chooseNativeBinding(candidates, (file) => file.includes('unpacked'))).toBe(candidates[1]);
    expect(chooseNativeBinding(nativeBindingCandidates({ env: {}, isPackaged: false, appPath: '/src' }))).toBeUndefined();
  });
});
