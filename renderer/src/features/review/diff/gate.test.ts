import { describe, expect, it } from 'vitest';
import type { DiffFile } from './file-diff.ts';
import { GATE_CHANGED_LINES, GATE_TEXT_CHARS, gateMessage, gateReason } from './gate.ts';

const base: DiffFile = {
  oldPath: 'a.txt',
  newPath: 'a.txt',
  status: 'modified',
  binary: false,
  oldSize: 10,
  newSize: 12,
};

describe('gateReason', () => {
  it('lets ordinary files through', () => {
    expect(gateReason({ ...base, oldText: 'a\n', newText: 'b\n', additions: 1, deletions: 1 })).toBeNull();
    expect(gateReason({ ...base, additions: GATE_CHANGED_LINES, deletions: 0 })).toBeNull();
  });

  it('gates when the provider says so, even without text', () => {
    expect(gateReason({ ...base, tooLarge: true, additions: 40000, deletions: 8213 })).toEqual({
      changedLines: 48213,
      chars: null,
    });
    expect(gateReason({ ...base, tooLarge: true })).toEqual({ changedLines: null, chars: null });
  });

  it('gates on changed lines and on text size', () => {
    expect(gateReason({ ...base, additions: GATE_CHANGED_LINES + 1, deletions: null })).toEqual({
      changedLines: GATE_CHANGED_LINES + 1,
      chars: null,
    });
    const big = 'x'.repeat(GATE_TEXT_CHARS);
    expect(gateReason({ ...base, oldText: big, newText: 'y' })).toEqual({
      changedLines: null,
      chars: GATE_TEXT_CHARS + 1,
    });
  });

  it('never gates binary files', () => {
    expect(gateReason({ ...base, binary: true, tooLarge: true })).toBeNull();
  });
});

describe('gateMessage', () => {
  it('counts changed lines when known, else gives the size', () => {
    expect(gateMessage({ changedLines: 48213, chars: null }, base)).toBe(
      'This file has 48,213 changed lines.',
    );
    expect(gateMessage({ changedLines: null, chars: 5 * 1024 * 1024 }, base)).toBe(
      'This diff is large (5 MB).',
    );
    expect(gateMessage({ changedLines: null, chars: null }, { oldSize: 2048, newSize: 9 * 1024 })).toBe(
      'This diff is large (9 KB).',
    );
  });
});
