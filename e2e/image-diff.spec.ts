/**
 * Image changes through `bindery serve` on a real git repository (issue 23, item 5): side by side,
 * swipe, onion skin and difference for PNG, JPEG, GIF, WebP and SVG, the SVG drawn as an image
 * (a data: URL in an <img>), never as markup. Screenshots of every mode, light and dark, at
 * 1280x800 go to e2e/artifacts/.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { seedReview } from './pages/review-seed.ts';
import { pictureGif, picturePng, pictureSvg } from './pages/test-images.ts';
import { Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

/** Re-encodes a PNG in Chromium's canvas (JPEG and WebP have no encoder in Node here). */
async function reencode(page: Page, png: Buffer, type: 'image/jpeg' | 'image/webp'): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ({ source, mime }) => {
      const g = globalThis as unknown as {
        Image: new () => { src: string; decode(): Promise<void>; naturalWidth: number; naturalHeight: number };
        document: { createElement(tag: 'canvas'): { width: number; height: number; getContext(kind: '2d'): { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void; drawImage(image: unknown, x: number, y: number): void } | null; toDataURL(mime: string, quality: number): string } };
      };
      const image = new g.Image();
      image.src = source;
      await image.decode();
      const canvas = g.document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no canvas');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(image, 0, 0);
      return canvas.toDataURL(mime, 0.9).split(',')[1] ?? '';
    },
    { source: `data:image/png;base64,${png.toString('base64')}`, mime: type },
  );
  return Buffer.from(base64, 'base64');
}

const FORMATS = [
  { file: 'img/picture.png', size: '320 × 200 px' },
  { file: 'img/photo.jpg', size: '320 × 200 px' },
  { file: 'img/anim.gif', size: '96 × 64 px' },
  { file: 'img/hero.webp', size: '320 × 200 px' },
  { file: 'img/icon.svg', size: '320 × 200 px' },
];

async function seed(app: { dataDir: string; page: Page }) {
  const page = app.page;
  const [png0, png1] = [picturePng(false), picturePng(true)];
  const original = {
    'img/picture.png': png0,
    'img/photo.jpg': await reencode(page, png0, 'image/jpeg'),
    'img/anim.gif': pictureGif(false),
    'img/hero.webp': await reencode(page, png0, 'image/webp'),
    'img/icon.svg': pictureSvg(false),
  };
  const changed = {
    'img/picture.png': png1,
    'img/photo.jpg': await reencode(page, png1, 'image/jpeg'),
    'img/anim.gif': pictureGif(true),
    'img/hero.webp': await reencode(page, png1, 'image/webp'),
    'img/icon.svg': pictureSvg(true),
  };
  return seedReview(app, workspace, original, changed);
}

async function mode(diff: Locator, name: string): Promise<void> {
  const radio = diff.getByRole('radiogroup', { name: 'Compare images' }).getByRole('radio', { name });
  await radio.click();
  await expect(radio).toHaveAttribute('aria-checked', 'true');
}

async function shot(page: Page, name: string): Promise<void> {
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.mouse.move(0, 0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}-1280x800${scheme === 'dark' ? '-dark' : ''}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('every image mode for PNG, JPEG, GIF, WebP and SVG', async ({ app, pageErrors }) => {
  const page = app.page;
  const seeded = await seed(app);
  for (const { file, size } of FORMATS) {
    const diff = await seeded.open(file);
    await expect(diff).toHaveAttribute('data-kind', 'image');

    // Side by side: both images, loaded, with their sizes.
    await expect(diff.getByRole('radio', { name: 'Side by side' })).toHaveAttribute('aria-checked', 'true');
    await expect(diff.getByRole('figure', { name: 'Before' })).toContainText(size);
    await expect(diff.getByRole('figure', { name: 'After' })).toContainText(size);

    // Swipe: the after image is cut where the slider says.
    await mode(diff, 'Swipe');
    const after = diff.locator('.diff-image-layer.diff-image-after');
    await expect(after).toHaveCSS('clip-path', 'inset(0px 0px 0px 50%)');
    await diff.getByRole('slider', { name: /Swipe position/ }).fill('30');
    await expect(after).toHaveCSS('clip-path', 'inset(0px 0px 0px 30%)');
    await expect(diff.locator('.diff-swipe-handle')).toHaveAttribute('style', /left: 30%/);

    // Onion skin: the after image fades with the slider.
    await mode(diff, 'Onion skin');
    await expect(after).toHaveCSS('opacity', '0.5');
    await diff.getByRole('slider', { name: 'Opacity of the after image' }).fill('80');
    await expect(after).toHaveCSS('opacity', '0.8');

    // Difference: a canvas and how many pixels differ.
    await mode(diff, 'Difference');
    await expect(diff.getByRole('img', { name: /Difference of the two images/ })).toBeVisible();
    await expect(diff.locator('.diff-image-slider.is-caption')).toHaveText(/^[\d,]+ pixels differ \([\d.]+%\)$/);
    if (file === 'img/picture.png') {
      await mode(diff, 'Side by side');
      await shot(page, 'image-diff-side-by-side');
      await mode(diff, 'Swipe');
      await shot(page, 'image-diff-swipe');
      await mode(diff, 'Onion skin');
      await shot(page, 'image-diff-onion-skin');
      await mode(diff, 'Difference');
      await shot(page, 'image-diff-difference');
    }
    await mode(diff, 'Side by side');
  }

  // The SVG arrives as an image: a data: URL in <img>, its markup never in the page.
  const svg = await seeded.open('img/icon.svg');
  await expect(svg.getByRole('figure', { name: 'After' }).locator('img')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  await expect(page.locator('linearGradient')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('an added image is shown alone, without the comparison modes', async ({ app }) => {
  const seeded = await seedReview(app, workspace, { 'README.txt': 'x\n' }, { 'img/new.png': picturePng(true) });
  const diff = await seeded.open('img/new.png');
  await expect(diff.getByRole('figure', { name: 'After' })).toContainText('320 × 200 px');
  await expect(diff.getByRole('figure', { name: 'Before' })).toContainText('No image before this change');
  await expect(diff.getByRole('radiogroup', { name: 'Compare images' })).toHaveCount(0);
});
