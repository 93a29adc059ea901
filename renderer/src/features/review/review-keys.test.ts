import { describe, expect, it } from 'vitest';
import { reviewKey, reviewShortcuts } from './review-keys.ts';

/**
 * A stand-in for an event target: matches selectors against the names it is "inside";
 * "input:checkbox" is an input of that type ("input" alone a text field), matched by `:not([type])`.
 */
function inside(...selectors: string[]): EventTarget {
  const matches = (part: string, name: string): boolean => {
    if (part === name) return true;
    const [tag, type = 'text'] = name.split(':');
    if (tag !== 'input') return false;
    return part === 'input' || (part.startsWith('input:not(') && !part.includes(`[type="${type}"]`));
  };
  return {
    closest: (query: string) => query.split(',').some((part) => selectors.some((name) => matches(part.trim(), name))),
  } as unknown as EventTarget;
}

const key = (k: string, patch: Partial<Parameters<typeof reviewKey>[0]> = {}) => ({
  key: k,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  defaultPrevented: false,
  target: inside(),
  ...patch,
});

describe('review keys', () => {
  it('maps j/k to files, n/p to changes and ? to the help', () => {
    expect(reviewKey(key('j'), false)).toBe('next-file');
    expect(reviewKey(key('k'), false)).toBe('previous-file');
    expect(reviewKey(key('n'), false)).toBe('next-change');
    expect(reviewKey(key('p'), false)).toBe('previous-change');
    expect(reviewKey(key('?'), false)).toBe('help');
    expect(reviewKey(key('x'), false)).toBeNull();
  });

  it('commits on Ctrl+Enter or Cmd+Enter, even from the filter', () => {
    expect(reviewKey(key('Enter', { ctrlKey: true }), false)).toBe('commit');
    expect(reviewKey(key('Enter', { metaKey: true, target: inside('input') }), false)).toBe('commit');
    expect(reviewKey(key('Enter'), false)).toBeNull();
  });

  it('leaves keys typed into fields, taken by the list or diff, or under a dialog', () => {
    expect(reviewKey(key('j', { target: inside('input') }), false)).toBeNull();
    expect(reviewKey(key('n', { defaultPrevented: true }), false)).toBeNull();
    expect(reviewKey(key('j', { ctrlKey: true }), false)).toBeNull();
    expect(reviewKey(key('j'), true)).toBeNull();
    expect(reviewKey(key('Enter', { ctrlKey: true, target: inside('dialog[open]') }), false)).toBeNull();
  });

  it('still takes keys with focus on a checkbox or radio (only text fields keep their letters)', () => {
    expect(reviewKey(key('j', { target: inside('input:checkbox') }), false)).toBe('next-file');
    expect(reviewKey(key('?', { target: inside('input:radio') }), false)).toBe('help');
    expect(reviewKey(key('j', { target: inside('input:search') }), false)).toBeNull();
    expect(reviewKey(key('n', { target: inside('textarea') }), false)).toBeNull();
  });

  it('lists every key it handles in the help', () => {
    const listed = reviewShortcuts('Ctrl').flatMap((g) => g.shortcuts.flatMap((s) => s.keys));
    for (const k of ['j', 'k', 'n', 'p', '?', '/', 'Space', 'Ctrl+Enter']) expect(listed).toContain(k);
  });

  it('lists the keys of the diff viewer: find, whitespace and whole file', () => {
    const listed = reviewShortcuts('\u2318').flatMap((g) => g.shortcuts.flatMap((s) => s.keys));
    for (const k of ['\u2318+F', 'Enter', 'Shift+Enter', 'w', 'e']) expect(listed).toContain(k);
  });

  it('lists the keys of choosing hunks and lines: Space, arrows and Shift+click', () => {
    const part = reviewShortcuts('Ctrl').find((g) => g.title === 'Commit in part');
    const text = (part?.shortcuts ?? []).map((s) => `${s.keys.join(' ')} ${s.action}`).join('\n');
    expect(text).toMatch(/Space .*hunk or changed line/);
    expect(text).toMatch(/Shift\+click .*changed line/);
    expect(text).toMatch(/Space .*partly taken file.*whole/);
  });

  it('lists the note keys: c on a change, shift-click for a range, save and cancel', () => {
    const notes = reviewShortcuts('Ctrl').find((g) => g.title === 'Notes');
    const listed = notes?.shortcuts.flatMap((s) => s.keys) ?? [];
    for (const k of ['c', 'Shift+click', 'Ctrl+Enter', 'Esc']) expect(listed).toContain(k);
  });
});
