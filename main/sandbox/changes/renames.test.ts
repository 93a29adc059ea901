import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../../../shared/dto.ts';
import { pairRenames, type Pairable } from './renames.ts';
import { fingerprint } from './similarity.ts';

function change(path: string, kind: 'added' | 'deleted'): ChangedFile {
  return { path, oldPath: null, kind, oldType: null, newType: null, oldMode: null, newMode: null, size: null, binary: false, additions: null, deletions: null, drift: 'clean', driftReason: null };
}

const lines = (name: string, edited: number) => Array.from({ length: 10 }, (_, i) => `${i < edited ? 'edited' : name} line ${i}\n`).join('');

describe('pairRenames', () => {
  it('pairs by likeness with each fingerprint made once, and counts the rename\'s lines', () => {
    const made: string[] = [];
    const item = (path: string, kind: 'added' | 'deleted', text: string): Pairable<string> => ({
      value: path,
      change: change(path, kind),
      addedId: () => `added:${path}`,
      deletedId: () => `deleted:${path}`,
      fingerprint: () => {
        made.push(path);
        return fingerprint(Buffer.from(text));
      },
    });
    const renamed: ChangedFile[] = [];
    const out = pairRenames([item('a.txt', 'deleted', lines('a', 0)), item('b.txt', 'added', lines('a', 3)), item('c.txt', 'added', 'other\n')], (added, deleted, c) => {
      renamed.push(c);
      return `${deleted} -> ${added}`;
    });
    expect(out).toEqual(['c.txt', 'a.txt -> b.txt']);
    expect(renamed[0]).toMatchObject({ kind: 'renamed', oldPath: 'a.txt', path: 'b.txt', similarity: 60, additions: 3, deletions: 3 });
    expect(made.sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });
});
