import { describe, expect, it } from 'vitest';
import { imageType } from './file-diff-view.ts';

describe('imageType', () => {
  it.each([
    ['a.png', 'image/png'],
    ['b/c.JPG', 'image/jpeg'],
    ['d.jpeg', 'image/jpeg'],
    ['e.gif', 'image/gif'],
    ['f.webp', 'image/webp'],
    ['g.avif', 'image/avif'],
    // SVG travels as an image (a data: URL drawn by <img>), never as markup in the page.
    ['icons/logo.svg', 'image/svg+xml'],
    ['LOGO.SVG', 'image/svg+xml'],
  ])('%s is %s', (file, mime) => {
    expect(imageType(file)).toBe(mime);
  });

  it('leaves text and unknown files to the text diff', () => {
    expect(imageType('index.ts')).toBeNull();
    expect(imageType('svg')).toBeNull();
    expect(imageType('notes.svg.txt')).toBeNull();
  });
});
