import { describe, expect, it } from 'vitest';
import { renameSimilarity } from './rename-label.ts';

describe('renameSimilarity', () => {
  it('gives the likeness of a rename with edits, and nothing for a pure rename or another kind', () => {
    expect(renameSimilarity('renamed', 93)).toBe('93%');
    expect(renameSimilarity('renamed', 50)).toBe('50%');
    expect(renameSimilarity('renamed', 100)).toBeNull();
    expect(renameSimilarity('renamed', undefined)).toBeNull();
    expect(renameSimilarity('modified', 93)).toBeNull();
  });
});
