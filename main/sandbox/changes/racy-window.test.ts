import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { COARSE_WINDOW_MS, takeRacyRule, wallClockRule } from './racy-window.ts';

/** `stat` with its ctime moved to the whole second, as a filesystem that keeps whole seconds has it. */
function wholeSecondCtime(stat: fs.Stats): fs.Stats {
  return Object.assign(Object.create(fs.Stats.prototype) as fs.Stats, stat, { ctimeMs: Math.floor(stat.ctimeMs / 1000) * 1000 });
}

describe('wallClockRule', () => {
  it('trusts times older than its window before the read', () => {
    const stat = fs.lstatSync(tempDir('bindery-racy-'));
    const rule = wallClockRule(500);
    expect(rule.settled(stat, stat.ctimeMs + 400)).toBe(false);
    expect(rule.settled(stat, stat.ctimeMs + 600)).toBe(true);
    expect(rule.racyFrom(1000)).toBe(500);
  });
});

describe.runIf(process.platform === 'linux')('takeRacyRule', () => {
  it('trusts an entry of a local filesystem once the kernel clock, read through the clock file, has moved past it', async () => {
    const root = tempDir('bindery-racy-');
    const clock = path.join(tempDir('bindery-racy-data-'), 'tmp', 'racy-clock');
    writeFiles(root, { 'before.txt': 'a\n' });
    await sleep(60);
    const rule = takeRacyRule([root], clock);
    expect(fs.existsSync(clock)).toBe(true);
    writeFiles(root, { 'after.txt': 'b\n' });
    const [before, after] = ['before.txt', 'after.txt'].map((name) => fs.lstatSync(path.join(root, name)));
    expect(before!.ctimeMs % 1000).not.toBe(0);
    expect(rule.settled(before!, Date.now())).toBe(true);
    // Written after the look began: a second write could share its tick.
    expect(rule.settled(after!, Date.now())).toBe(false);
    expect(after!.ctimeMs).toBeGreaterThanOrEqual(rule.racyFrom(Date.now()));
    // Within two ticks of the stamp is too close: a filesystem's clock may lag the stamp's by a tick.
    const atMargin = (ms: number): fs.Stats => Object.assign(Object.create(fs.Stats.prototype) as fs.Stats, before, { mtimeMs: ms, ctimeMs: ms });
    const edge = rule.racyFrom(0);
    expect(rule.settled(atMargin(edge + 5.5), Date.now())).toBe(false);
    expect(rule.settled(atMargin(edge - 5.5), Date.now())).toBe(true);
    expect(edge).toBeLessThanOrEqual(fs.lstatSync(clock).ctimeMs - 20);
    // Whole-second times say nothing of the tick: seconds of wall time decide.
    expect(rule.settled(wholeSecondCtime(before!), Date.now())).toBe(false);
    expect(rule.settled(wholeSecondCtime(before!), Date.now() + COARSE_WINDOW_MS + 1000)).toBe(true);
  });

  it('judges entries on another filesystem than the roots, or one with another clock, by seconds of wall time', async () => {
    const root = tempDir('bindery-racy-');
    const clock = path.join(tempDir('bindery-racy-data-'), 'racy-clock');
    // A root that is not there gives no clock to trust.
    await sleep(60);
    const own = fs.lstatSync(root);
    expect(takeRacyRule([path.join(root, 'no-such-root')], clock).settled(own, Date.now())).toBe(false);
    expect(takeRacyRule([root], clock).settled(own, Date.now())).toBe(true);
    if (!fs.existsSync('/dev/shm')) return;
    const shm = fs.mkdtempSync(path.join('/dev/shm', 'bindery-racy-'));
    try {
      // Needs tmpfs at /dev/shm, apart from the temporary folder (as on Linux machines and CI).
      if (fs.statSync(shm).dev === fs.statSync(root).dev) return;
      await sleep(60);
      const elsewhere = fs.lstatSync(shm);
      expect(elsewhere.dev).not.toBe(fs.lstatSync(root).dev);
      expect(takeRacyRule([root], clock).settled(elsewhere, Date.now())).toBe(false);
      expect(takeRacyRule([root], clock).settled(elsewhere, Date.now() + COARSE_WINDOW_MS + 1000)).toBe(true);
      // tmpfs keeps this machine's clock once it is a root.
      expect(takeRacyRule([root, shm], clock).settled(elsewhere, Date.now())).toBe(true);
    } finally {
      fs.rmSync(shm, { recursive: true, force: true });
    }
  });

  it('trusts nothing by the kernel clock when the clock file cannot be written', async () => {
    const root = tempDir('bindery-racy-');
    await sleep(60);
    const stat = fs.lstatSync(root);
    const blocked = path.join(root, 'a-file');
    fs.writeFileSync(blocked, '');
    expect(takeRacyRule([root], path.join(blocked, 'racy-clock')).settled(stat, Date.now())).toBe(false);
  });
});
