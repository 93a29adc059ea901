/**
 * The fuses hook against files carrying a fuse wire laid out as Electron's is (sentinel, version,
 * length, one byte per fuse), flipped by the real @electron/fuses. A real Electron binary is not
 * available here; the wire format is what @electron/fuses reads in one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface AfterPackModule {
  afterPack(context: unknown): Promise<void>;
}
interface StandInModule {
  createStandInElectron(dir: string, version: string): string;
}

// Untyped JavaScript modules, loaded by a computed specifier so TypeScript does not ask for types.
async function load<T>(specifier: string): Promise<T> {
  return (await import(specifier)) as T;
}

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron's shipped defaults, in wire order: RunAsNode, CookieEncryption, NodeOptions,
// NodeCliInspect, AsarIntegrity, OnlyLoadAppFromAsar, V8Snapshot, FileProtocolPrivileges.
const SHIPPED = '10110001';

let work: string;

function fakeBinary(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const wire = Buffer.concat([
    Buffer.from(SENTINEL, 'latin1'),
    Buffer.from([1, SHIPPED.length]),
    Buffer.from(SHIPPED, 'latin1'),
  ]);
  fs.writeFileSync(file, Buffer.concat([Buffer.alloc(4096, 7), wire, Buffer.alloc(4096, 9)]), {
    mode: 0o755,
  });
}

function wireOf(file: string): string {
  const bytes = fs.readFileSync(file);
  const at = bytes.indexOf(SENTINEL) + SENTINEL.length + 2;
  return bytes.subarray(at, at + SHIPPED.length).toString('latin1');
}

function packContext(platform: string) {
  return {
    appOutDir: work,
    electronPlatformName: platform,
    arch: 1,
    packager: { executableName: 'bindery-app', appInfo: { productFilename: 'Bindery' } },
  };
}

beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-fuses-'));
});

afterEach(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe('afterPack fuses', () => {
  it('turns RunAsNode, NODE_OPTIONS and inspect off, cookie encryption and asar-only on (Linux)', async () => {
    const { afterPack } = await load<AfterPackModule>('./after-pack.js');
    fakeBinary(path.join(work, 'bindery-app'));
    await afterPack(packContext('linux'));
    // Asar integrity stays as shipped on Linux, where Electron does not check it.
    expect(wireOf(path.join(work, 'bindery-app'))).toBe('01000101');
  });

  it('also turns asar integrity validation on for Windows', async () => {
    const { afterPack } = await load<AfterPackModule>('./after-pack.js');
    fakeBinary(path.join(work, 'Bindery.exe'));
    await afterPack(packContext('win32'));
    expect(wireOf(path.join(work, 'Bindery.exe'))).toBe('01001101');
  });

  it('skips the stand-in Electron and leaves it as it was', async () => {
    const { afterPack } = await load<AfterPackModule>('./after-pack.js');
    const { createStandInElectron } = await load<StandInModule>('./stand-in-electron.js');
    createStandInElectron(path.join(work, 'dist'), '45.0.0');
    fs.copyFileSync(path.join(work, 'dist', 'electron'), path.join(work, 'bindery-app'));
    const before = fs.readFileSync(path.join(work, 'bindery-app'));
    await afterPack(packContext('linux'));
    expect(fs.readFileSync(path.join(work, 'bindery-app'))).toEqual(before);
  });

  it('fails the build for an executable that is neither Electron nor the stand-in', async () => {
    const { afterPack } = await load<AfterPackModule>('./after-pack.js');
    fs.writeFileSync(path.join(work, 'bindery-app'), 'not electron');
    await expect(afterPack(packContext('linux'))).rejects.toThrow(/sentinel/);
  });
});
