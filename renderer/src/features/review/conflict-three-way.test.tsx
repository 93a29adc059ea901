import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ThreeWayView } from './conflict-three-way.tsx';
import { splitBidi } from './diff/bidi.ts';

describe('ThreeWayView', () => {
  it('draws a hidden bidirectional character as its code point, never raw', () => {
    const html = renderToStaticMarkup(
      <ThreeWayView hunks={[{ kind: 'conflict', base: ['ok'], original: ['ok'], sandbox: ['if (admin\u202E) {'] }]} />,
    );
    expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(html).toContain('U+202E');
    expect(html).toContain('if (admin');
  });
});

describe('splitBidi', () => {
  it('cuts text around each character and keeps the rest whole', () => {
    expect(splitBidi('a\u2066b\u2069')).toEqual([
      { text: 'a', bidi: false },
      { text: '\u2066', bidi: true },
      { text: 'b', bidi: false },
      { text: '\u2069', bidi: true },
    ]);
    expect(splitBidi('')).toEqual([{ text: '', bidi: false }]);
    expect(splitBidi('plain')).toEqual([{ text: 'plain', bidi: false }]);
  });
});
