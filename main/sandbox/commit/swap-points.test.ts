/**
 * A folder of the original swapped for a symlink at each point of a commit (issue 20, item 4):
 * whatever the commit then says is checked against the disk. A commit that claims every file is
 * as before (or nothing was changed) must have left no new version and no temp file anywhere,
 * the moved folder included; otherwise it names what it left.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import * as journal from './journal/index.ts';
import type { FaultPoint, JournalHooks } from './journal/index.ts';
import { SandboxManager } from '../sandbox-manager.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

const FILES = 12;

function files(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const rel = path.relative(root, path.join(entry.parentPath, entry.name));
    if (entry.isFile()) out[rel] = fs.readFileSync(path.join(root, rel), 'utf8');
  }
  return out;
}

const POINTS: FaultPoint[] = ['checked', 'backed_up', 'prepared', 'staged', 'decided', 'before_replace', 'replaced', 'synced'];

describe('a folder swapped for a symlink at each point of a commit', () => {
  it.each(POINTS.flatMap((point) => [[point, false] as const, [point, true] as const]))('at %s (cancelled right after: %s): what the commit says holds', async (point, cancel) => {
    const { dataDir, store, plan } = newManager();
    const original = tempDir('bindery-orig-');
    const outside = tempDir('bindery-outside-');
    const controller = new AbortController();
    let hits = 0;
    const hooks: JournalHooks = {
      at(reached, relPath) {
        if (reached !== point || (relPath !== undefined && !relPath.startsWith('sub/')) || ++hits !== 3 - (relPath === undefined ? 2 : 0)) return;
        fs.renameSync(path.join(original, 'sub'), path.join(original, 'sub-moved'));
        for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(outside, `f${i}.txt`), `old ${i}\n`);
        fs.symlinkSync(outside, path.join(original, 'sub'));
        if (cancel) controller.abort();
      },
    };
    const manager = new SandboxManager({ store, dataDir, journal: { ...journal, applyTransaction: (input) => journal.applyTransaction({ ...input, hooks, concurrency: 1 }) } });
    const before: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) Object.assign(before, { [`sub/f${i}.txt`]: `old ${i}\n`, [`top/g${i}.txt`]: `old g${i}\n` });
    writeFiles(original, before);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, Object.fromEntries(Object.keys(before).map((rel) => [rel, `new ${rel}\n`])));
    const error = await manager.commit(sandbox.id, { signal: controller.signal }).then(
      () => null,
      (e: Error) => e,
    );
    if (hits === 0) return; // the point was not reached in a way that swaps
    const after = files(original);
    const temps = [...Object.keys(after), ...Object.keys(files(outside))].filter((rel) => path.basename(rel).startsWith('.bindery-tmp-'));
    expect(files(outside)).toEqual(Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`f${i}.txt`, `old ${i}\n`])));
    if (error === null) return; // committed (the swap came after the last check): the user's swap stands
    if (!/not as before/.test(error.message) && /every file is as before|nothing was changed|nothing was written/i.test(error.message)) {
      expect(temps, error.message).toEqual([]);
      for (const [rel, content] of Object.entries(after)) expect(content, `${rel}: ${error.message}`).toMatch(/^old /);
    } else {
      expect(error.message).toMatch(/not as before|left/);
    }
  });
});
