import { describe, expect, it } from 'vitest';
import { textsFingerprint } from '../../../../../shared/patch-selection.ts';
import { TextsFingerprintMemo } from './texts-fingerprint-memo.ts';

/** A memo whose hash counts its calls. */
function counted(): { memo: TextsFingerprintMemo; calls: () => number } {
  let calls = 0;
  const memo = new TextsFingerprintMemo((a, b) => (calls++, textsFingerprint(a, b)));
  return { memo, calls: () => calls };
}

describe('TextsFingerprintMemo', () => {
  it('hashes nothing until asked, then once for any number of clicks on the same texts', () => {
    const { memo, calls } = counted();
    expect(calls()).toBe(0);
    for (let i = 0; i < 5; i++) expect(memo.of('old\n', 'new\n')).toBe(textsFingerprint('old\n', 'new\n'));
    expect(calls()).toBe(1);
  });

  it('hashes again when either text changes', () => {
    const { memo, calls } = counted();
    memo.of('a', 'b');
    expect(memo.of('a', 'c')).toBe(textsFingerprint('a', 'c'));
    expect(memo.of('x', 'c')).toBe(textsFingerprint('x', 'c'));
    expect(calls()).toBe(3);
  });
});
