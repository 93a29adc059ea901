import { beforeEach, describe, expect, it } from 'vitest';
import { filePatch, textsFingerprint, type ChangeKey } from '../../../../../shared/patch-selection.ts';
import { changeKeys } from './selection-model.ts';
import { entryAt, selectionKey, takeWholeIfPartly, usePartialSelection } from './selection-store.ts';

const OLD = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n';
const NEW = 'A\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nM\n';
const patch = filePatch(OLD, NEW);
const key = selectionKey('plan', 'sb', 'src/a.ts');

describe('usePartialSelection', () => {
  beforeEach(() => usePartialSelection.setState({ entries: {} }));

  it('keeps an entry only for a file partly chosen', () => {
    const store = usePartialSelection.getState();
    expect(patch.hunks).toHaveLength(2);
    expect(store.choose(key, 'v1', patch, new Set<ChangeKey>(['-1', '+1']))).toBe('some');
    const entry = entryAt(usePartialSelection.getState(), key, 'v1');
    expect(entry?.selection).toEqual({ hunks: [1] });
    expect(entry?.summary).toMatchObject({ hunks: 1, hunksTotal: 2 });
    expect(store.choose(key, 'v1', patch, new Set(changeKeys(patch)))).toBe('all');
    expect(usePartialSelection.getState().entries[key]).toBeUndefined();
    store.choose(key, 'v1', patch, new Set<ChangeKey>(['-1']));
    expect(store.choose(key, 'v1', patch, new Set())).toBe('none');
    expect(usePartialSelection.getState().entries[key]).toBeUndefined();
  });

  it('reads an entry as absent once the change is another version, and prunes it', () => {
    const store = usePartialSelection.getState();
    store.choose(key, 'v1', patch, new Set<ChangeKey>(['+13']));
    const other = selectionKey('plan', 'sb', 'b.ts');
    store.choose(other, 'w1', patch, new Set<ChangeKey>(['+13']));
    const elsewhere = selectionKey('plan', 'sb2', 'src/a.ts');
    store.choose(elsewhere, 'v1', patch, new Set<ChangeKey>(['+13']));
    expect(entryAt(usePartialSelection.getState(), key, 'v2')).toBeUndefined();
    store.prune('plan', 'sb', new Map([['src/a.ts', 'v2'], ['b.ts', 'w1']]));
    const { entries } = usePartialSelection.getState();
    expect(entries[key]).toBeUndefined();
    expect(entries[other]).toBeDefined();
    expect(entries[elsewhere]).toBeDefined();
    store.clear(other);
    expect(usePartialSelection.getState().entries[other]).toBeUndefined();
  });
});

describe('usePartialSelection texts', () => {
  beforeEach(() => usePartialSelection.setState({ entries: {} }));

  it('carries the fingerprint of the texts chosen on into the contract selection', () => {
    usePartialSelection.getState().choose(key, 'v1', patch, new Set<ChangeKey>(['-1', '+1']), textsFingerprint(OLD, NEW));
    expect(entryAt(usePartialSelection.getState(), key, 'v1')?.selection).toEqual({ hunks: [1], texts: textsFingerprint(OLD, NEW) });
    expect(textsFingerprint(OLD, NEW)).not.toBe(textsFingerprint(OLD, NEW.replace('A', 'B')));
  });
});

describe('takeWholeIfPartly (Space on a mixed file row, as a click)', () => {
  beforeEach(() => usePartialSelection.setState({ entries: {} }));

  it('takes a partly chosen file whole instead of leaving it out', () => {
    usePartialSelection.getState().choose(key, 'v1', patch, new Set<ChangeKey>(['-1', '+1']));
    expect(takeWholeIfPartly(key, 'v1')).toBe(true);
    expect(usePartialSelection.getState().entries[key]).toBeUndefined();
    // Taken whole now: the next Space toggles the plain checkbox (the caller's part).
    expect(takeWholeIfPartly(key, 'v1')).toBe(false);
  });

  it('leaves a choice made on another version of the change to the plain toggle', () => {
    usePartialSelection.getState().choose(key, 'v1', patch, new Set<ChangeKey>(['+13']));
    expect(takeWholeIfPartly(key, 'v2')).toBe(false);
  });
});
