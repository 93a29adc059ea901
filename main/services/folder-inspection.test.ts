import { describe, expect, it } from 'vitest';
import { freeName, suggestName } from './folder-inspection.ts';

describe('suggestName', () => {
  it('proposes local/<folder> with unusable characters replaced', () => {
    expect(suggestName('/home/me/src/my-app')).toBe('local/my-app');
    expect(suggestName('/home/me/My Project (old)')).toBe('local/My-Project-old');
    expect(suggestName('/home/me/.config')).toBe('local/config');
    expect(suggestName('/home/me/日本')).toBe('local/folder');
    expect(suggestName('/')).toBe('local/folder');
  });
});

describe('freeName', () => {
  it('adds -2, -3 ... until the name is free', () => {
    expect(freeName('local/app', new Set())).toBe('local/app');
    expect(freeName('local/app', new Set(['local/app', 'local/app-2']))).toBe('local/app-3');
  });
});
