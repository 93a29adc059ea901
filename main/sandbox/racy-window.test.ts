import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../testing/fixtures.ts';
import { COARSE_WINDOW_MS, FINE_WINDOW_MS, uniformWindow, windowsUnder } from './racy-window.ts';

/** `stat` with its ctime moved to the whole second, as a filesystem that keeps whole seconds has it. */
function wholeSecondCtime(stat: fs.Stats): fs.Stats {
  return Object.assign(Object.create(fs.Stats.prototype) as fs.Stats, stat, { ctimeMs: Math.floor(stat.ctimeMs / 1000) * 1000 });
}

describe.runIf(process.platform === 'linux')('racy windows', () => {
  it('trusts sub-second times on a local filesystem of a root after a tenth of a second', () => {
    const root = tempDir('bindery-racy-');
    writeFiles(root, { 'a.txt': 'a\n' });
    const stat = fs.lstatSync(path.join(root, 'a.txt'));
    expect(stat.ctimeMs % 1000).not.toBe(0);
    const windows = windowsUnder([root]);
    expect(windows.of(stat)).toBe(FINE_WINDOW_MS);
    expect(windows.of(wholeSecondCtime(stat))).toBe(COARSE_WINDOW_MS);
  });

  it('gives seconds to entries on another filesystem than the roots, and to filesystems that keep another clock', () => {
    const root = tempDir('bindery-racy-');
    const shm = fs.mkdtempSync(path.join('/dev/shm', 'bindery-racy-'));
    try {
      const elsewhere = fs.lstatSync(shm);
      expect(elsewhere.dev).not.toBe(fs.lstatSync(root).dev);
      expect(windowsUnder([root]).of(elsewhere)).toBe(COARSE_WINDOW_MS);
      // tmpfs keeps this machine's clock once it is a root.
      expect(windowsUnder([root, shm]).of(elsewhere)).toBe(FINE_WINDOW_MS);
    } finally {
      fs.rmSync(shm, { recursive: true, force: true });
    }
    // procfs is not a filesystem whose times Bindery knows the clock of.
    expect(windowsUnder(['/proc']).of(fs.lstatSync('/proc/self/stat'))).toBe(COARSE_WINDOW_MS);
    expect(windowsUnder([path.join(os.tmpdir(), 'bindery-no-such-root')]).of(fs.lstatSync(root))).toBe(COARSE_WINDOW_MS);
  });

  it('gives one window to everything when asked to', () => {
    expect(uniformWindow(7).of(fs.lstatSync(tempDir('bindery-racy-')))).toBe(7);
  });
});
