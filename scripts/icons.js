// Renders every platform's icon from the one source, assets/icon.svg:
//   node scripts/icons.js
// Commit the results; packaging reads them and never renders anything itself.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import png2icons from 'png2icons';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The PNG sizes electron-builder looks for in a Linux icon folder (`<n>x<n>.png`). */
export const LINUX_ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

/** Renders `svg` (the file's text) to a square PNG of `size` pixels. */
export function renderPng(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' })
    .render()
    .asPng();
}

/**
 * Writes icon.png (1024 px), icon.icns (macOS), icon.ico (Windows) and icons/<n>x<n>.png (Linux)
 * into `outDir` from the SVG at `source`; returns the paths written.
 */
export function generateIcons({
  source = path.join(root, 'assets', 'icon.svg'),
  outDir = path.join(root, 'assets'),
} = {}) {
  const svg = fs.readFileSync(source, 'utf8');
  const master = renderPng(svg, 1024);
  const written = [];
  const write = (file, data) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data);
    written.push(file);
  };
  write(path.join(outDir, 'icon.png'), master);
  for (const size of LINUX_ICON_SIZES) {
    // Each size is rendered from the vector, not scaled down from the master, so small sizes stay crisp.
    write(path.join(outDir, 'icons', `${size}x${size}.png`), size === 1024 ? master : renderPng(svg, size));
  }
  write(
    path.join(outDir, 'icon.icns'),
    required(png2icons.createICNS(master, png2icons.BICUBIC2, 0), 'icns'),
  );
  write(
    path.join(outDir, 'icon.ico'),
    required(png2icons.createICO(master, png2icons.BICUBIC2, 0, false, true), 'ico'),
  );
  return written;
}

function required(buffer, kind) {
  if (!buffer)
    throw new Error(
      `png2icons could not make the ${kind} icon: check that assets/icon.svg renders to a square image.`,
    );
  return buffer;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of generateIcons()) console.log(`wrote ${path.relative(root, file)}`);
}
