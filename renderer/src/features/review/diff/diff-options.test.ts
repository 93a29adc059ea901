import { describe, expect, it } from 'vitest';
import { HIDE_WHITESPACE_KEY, readHideWhitespace } from './diff-options.ts';

const store = (value: string | null) => ({ getItem: (key: string) => (key === HIDE_WHITESPACE_KEY ? value : null) });

describe('readHideWhitespace', () => {
  it('is on only when "true" is stored', () => {
    expect(readHideWhitespace(store('true'))).toBe(true);
    expect(readHideWhitespace(store('false'))).toBe(false);
    expect(readHideWhitespace(store('yes'))).toBe(false);
    expect(readHideWhitespace(store(null))).toBe(false);
    expect(readHideWhitespace(null)).toBe(false);
  });

  it('survives a storage that throws', () => {
    expect(
      readHideWhitespace({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBe(false);
  });
});
