/** The icon script renders every platform's format from the one SVG, and the config's icons exist. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';

interface IconsModule {
  generateIcons(options: { source?: string; outDir: string }): string[];
  LINUX_ICON_SIZES: number[];
}

// An untyped JavaScript module, loaded by a computed specifier so TypeScript does not ask for types.
const modulePath = './icons.js';
const root = path.resolve(import.meta.dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-icons-'));

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function pngSize(file: string): [number, number] {
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('icons', () => {
  it('renders PNGs of every Linux size, an icns and an ico', async () => {
    const { generateIcons, LINUX_ICON_SIZES } = (await import(modulePath)) as IconsModule;
    generateIcons({ outDir: work });
    for (const size of LINUX_ICON_SIZES)
      expect(pngSize(path.join(work, 'icons', `${size}x${size}.png`))).toEqual([size, size]);
    expect(pngSize(path.join(work, 'icon.png'))).toEqual([1024, 1024]);
    expect(fs.readFileSync(path.join(work, 'icon.icns')).subarray(0, 4).toString('latin1')).toBe('icns');
    const ico = fs.readFileSync(path.join(work, 'icon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    expect(ico.readUInt16LE(4)).toBeGreaterThanOrEqual(5);
  });

  it('has every icon and entitlements file electron-builder.yml names committed', () => {
    const config = parse(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    const named = [
      config.mac!.icon,
      config.mac!.entitlements,
      config.win!.icon,
      path.join(config.linux!.icon!, '512x512.png'),
    ];
    for (const file of named) expect(fs.existsSync(path.join(root, file!)), file).toBe(true);
  });
});
