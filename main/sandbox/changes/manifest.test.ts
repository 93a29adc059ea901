import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { Manifest, readManifest, writeManifest, type ManifestEntry } from './manifest.ts';

const file = (rel: string, extra: Partial<ManifestEntry> = {}): ManifestEntry => ({ path: rel, type: 'file', size: rel.length, mtimeMs: 1.5e12 + 0.25, mode: 0o644, ino: 7, ...extra });

describe('manifest', () => {
  // 'x-' and 'x.txt' sort between the folder name 'x' and its entries 'x/...'.
  const paths = ['x-', 'x.txt', 'x/a', 'x/b/c', 'y/z', 'bad\udcffname', 'new\nline', 'z'];

  it('round-trips entries exactly, extras included, and looks them up by path', async () => {
    const stem = path.join(tempDir('bindery-manifest-'), 'manifest');
    await writeManifest(stem, [...paths.map((p) => file(p)), file('link', { type: 'symlink', target: 'x' }), file('racy', { sha256: 'ab', racy: true })]);
    const read = readManifest(stem);
    expect(read.size).toBe(paths.length + 2);
    expect(read.get('bad\udcffname')).toEqual(file('bad\udcffname'));
    expect(read.get('link')).toMatchObject({ type: 'symlink', target: 'x' });
    expect(read.get('racy')).toMatchObject({ sha256: 'ab', racy: true });
    expect(read.get('missing')).toBeUndefined();
    read.markVerified(read.indexOf('racy'));
    read.saveSync();
    expect(readManifest(stem).get('racy')?.racy).toBeUndefined();
  });

  it("keeps the original's ctime, and reads a manifest written before it was kept", async () => {
    const stem = path.join(tempDir('bindery-manifest-'), 'manifest');
    await writeManifest(stem, [file('a', { ctimeMs: 1.6e12 + 0.5 }), file('b')]);
    expect(readManifest(stem).get('a')?.ctimeMs).toBe(1.6e12 + 0.5);
    expect(readManifest(stem).get('b')?.ctimeMs).toBeUndefined();
    // Three loose files, six numbers per entry, as manifests had them: size, mtime, mode, inode, type, racy.
    fs.rmSync(`${stem}.sealed`);
    fs.writeFileSync(`${stem}.paths`, 'a\0b\0');
    fs.writeFileSync(`${stem}.extra.json`, '{}');
    fs.writeFileSync(`${stem}.stats`, new Uint8Array(new Float64Array([2, 1.5e12, 0o600, 9, 0, 0, 3, 1.5e12, 0o644, 8, 1, 0]).buffer));
    const old = readManifest(stem);
    expect([old.get('a'), old.get('b')]).toEqual([
      { path: 'a', type: 'file', size: 2, mtimeMs: 1.5e12, mode: 0o600, ino: 9 },
      { path: 'b', type: 'symlink', size: 3, mtimeMs: 1.5e12, mode: 0o644, ino: 8 },
    ]);
    // Nothing vouches for it, and it has no baseline: change detection then scans everything.
    expect([old.sealed, old.baselineMs]).toEqual([false, null]);
    // Saved again, it is sealed, and the loose files go.
    old.saveSync();
    expect(readManifest(stem).sealed).toBe(true);
    expect(fs.existsSync(`${stem}.stats`)).toBe(false);
  });

  it('refuses a manifest that was altered, torn or removed, saying why', async () => {
    const stem = path.join(tempDir('bindery-manifest-'), 'manifest');
    await writeManifest(stem, paths.map((p) => file(p)));
    const good = fs.readFileSync(`${stem}.sealed`);
    const flipped = Buffer.from(good);
    flipped[good.length - 80] = flipped[good.length - 80]! ^ 1;
    fs.writeFileSync(`${stem}.sealed`, flipped);
    expect(() => readManifest(stem)).toThrow(/checksum does not match/);
    fs.writeFileSync(`${stem}.sealed`, good.subarray(0, good.length - 10));
    expect(() => readManifest(stem)).toThrow(/checksum|not a Bindery manifest/);
    fs.writeFileSync(`${stem}.sealed`, '');
    expect(() => readManifest(stem)).toThrow(/not a Bindery manifest/);
    fs.rmSync(`${stem}.sealed`);
    expect(() => readManifest(stem)).toThrow(/cannot be read/);
  });

  it('checks the seal again after any write, though a settled manifest it verified is not hashed twice', async () => {
    const stem = path.join(tempDir('bindery-manifest-'), 'manifest');
    await writeManifest(stem, paths.map((p) => file(p)));
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect(readManifest(stem).size).toBe(paths.length);
    const altered = fs.readFileSync(`${stem}.sealed`);
    altered[altered.length - 80] = altered[altered.length - 80]! ^ 1;
    fs.writeFileSync(`${stem}.sealed`, altered);
    expect(() => readManifest(stem)).toThrow(/checksum does not match/);
  });

  it('finds what a folder lost by its direct names, whatever sorts between them', () => {
    const manifest = Manifest.from('unused', paths.map((p) => file(p)));
    const lost = (dir: string, names: string[]) => manifest.lostUnder(dir, new Set(names)).map((i) => manifest.entryAt(i).path).sort();
    expect(lost('', ['x', 'x-', 'x.txt', 'y', 'bad\udcffname', 'new\nline', 'z'])).toEqual([]);
    expect(lost('', ['x-', 'x.txt', 'y', 'bad\udcffname', 'new\nline', 'z'])).toEqual(['x/a', 'x/b/c']);
    expect(lost('', ['x', 'x-', 'y', 'bad\udcffname', 'new\nline', 'z'])).toEqual(['x.txt']);
    expect(lost('x', ['b'])).toEqual(['x/a']);
    expect(lost('x', [])).toEqual(['x/a', 'x/b/c']);
    expect(lost('x/b', ['c'])).toEqual([]);
    expect(lost('', ['z'])).toEqual(['bad\udcffname', 'new\nline', 'x-', 'x.txt', 'x/a', 'x/b/c', 'y/z'].sort());
  });
});

const hasStrace = process.platform === 'linux' && spawnSync('strace', ['-V']).status === 0;

describe('manifest durability', () => {
  it.skipIf(!hasStrace)('flushes the sealed file and then its folder, so the replace survives a power loss', () => {
    const dir = tempDir('bindery-manifest-');
    const stem = path.join(dir, 'manifest');
    const trace = path.join(tempDir('bindery-trace-'), 'trace.txt');
    const script = `const { writeManifest } = await import(${JSON.stringify(path.join(import.meta.dirname, 'manifest.ts'))}); await writeManifest(${JSON.stringify(stem)}, [{ path: 'a', type: 'file', size: 1, mtimeMs: 1, mode: 420, ino: 1 }]);`;
    const child = spawnSync('strace', ['-f', '-qq', '-e', 'trace=openat,fsync,fdatasync,rename,renameat,renameat2', '-o', trace, process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const lines = fs.readFileSync(trace, 'utf8').split('\n');
    const renamed = lines.findIndex((line) => /rename/.test(line) && line.includes(`${stem}.sealed"`));
    expect(renamed).toBeGreaterThan(-1);
    const fdOf = (line: string) => /= (\d+)$/.exec(line.trim())?.[1];
    // The temporary file is flushed before the rename...
    const tempFd = lines.slice(0, renamed).reverse().map((line) => (line.includes(`${stem}.sealed.`) && line.includes('openat') ? fdOf(line) : undefined)).find(Boolean);
    expect(lines.slice(0, renamed).some((line) => line.includes(`fsync(${tempFd})`))).toBe(true);
    // ...and the folder after it.
    const after = lines.slice(renamed);
    const dirFd = after.map((line) => (line.includes('openat') && line.includes(`"${dir}"`) ? fdOf(line) : undefined)).find(Boolean);
    expect(dirFd).toBeDefined();
    expect(after.some((line) => line.includes(`fsync(${dirFd})`))).toBe(true);
  });
});
