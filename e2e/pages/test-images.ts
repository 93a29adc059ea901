/**
 * Small real images for the image-diff specs: an SVG picture (before and after) as text, the same
 * rendered to PNG by resvg, and a GIF written by a tiny encoder (8-bit codes with a clear code
 * every 100 pixels, so no LZW compression is needed). JPEG and WebP come from Chromium's canvas.
 */
import { Resvg } from '@resvg/resvg-js';

/** The picture before and after the change: the gradient, the disc and the bars move. */
export function pictureSvg(after: boolean): string {
  const [from, to] = after ? ['#db2777', '#f59e0b'] : ['#4f46e5', '#06b6d4'];
  const disc = after ? '<circle cx="124" cy="100" r="40" fill="#fff" fill-opacity="0.92"/>' : '<circle cx="110" cy="100" r="44" fill="#fff" fill-opacity="0.92"/>';
  const bar = after ? 92 : 100;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200">',
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`,
    '<rect x="20" y="20" width="280" height="160" rx="24" fill="url(#g)"/>',
    disc,
    `<rect x="180" y="72" width="${bar}" height="16" rx="8" fill="#fff" fill-opacity="0.85"/>`,
    '<rect x="180" y="104" width="64" height="16" rx="8" fill="#fff" fill-opacity="0.6"/>',
    after ? '<rect x="180" y="136" width="40" height="10" rx="5" fill="#fff" fill-opacity="0.5"/>' : '',
    '</svg>',
    '',
  ].join('\n');
}

/** The picture as PNG bytes. */
export function picturePng(after: boolean): Buffer {
  return Buffer.from(new Resvg(pictureSvg(after)).render().asPng());
}

/** A 96x64 GIF: a disc on a light ground, moved and recoloured in the "after" version. */
export function pictureGif(after: boolean): Buffer {
  const width = 96;
  const height = 64;
  const palette: Array<[number, number, number]> = [
    [248, 250, 252],
    [99, 102, 241],
    [245, 158, 11],
  ];
  const [cx, cy, r, color] = after ? [58, 34, 20, 2] : [40, 30, 22, 1];
  const pixels: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.push((x - cx) ** 2 + (y - cy) ** 2 <= r * r ? color : 0);
  }
  return encodeGif(width, height, palette, pixels);
}

function encodeGif(width: number, height: number, colors: Array<[number, number, number]>, pixels: number[]): Buffer {
  const minCodeSize = 7; // 128 colours; codes start 8 bits wide
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const table = Buffer.alloc(128 * 3);
  colors.forEach(([r, g, b], i) => table.set([r, g, b], i * 3));
  const codes: number[] = [];
  pixels.forEach((pixel, i) => {
    if (i % 100 === 0) codes.push(clear);
    codes.push(pixel);
  });
  codes.push(end);
  const data = Buffer.from(codes);
  const blocks: Buffer[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const chunk = data.subarray(i, i + 255);
    blocks.push(Buffer.from([chunk.length]), chunk);
  }
  const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
  return Buffer.concat([
    Buffer.from('GIF89a', 'ascii'),
    u16(width),
    u16(height),
    Buffer.from([0xf6, 0, 0]),
    table,
    Buffer.from([0x2c]),
    u16(0),
    u16(0),
    u16(width),
    u16(height),
    Buffer.from([0, minCodeSize]),
    ...blocks,
    Buffer.from([0, 0x3b]),
  ]);
}
