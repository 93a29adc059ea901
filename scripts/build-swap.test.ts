/** scripts/build.js swapIn: out/renderer replaced by renames, also by two builds at once. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { swapIn } from './build.js';

const BUILD = pathToFileURL(path.join(import.meta.dirname, 'build.js')).href;
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-swap-'));
  temps.push(dir);
  return dir;
}

/** A process putting `rounds` fresh folders into `target` one after another, as builds do. */
function swapper(target: string, rounds: number): Promise<{ code: number | null; stderr: string }> {
  const script = `
    import fs from 'node:fs';
    import { swapIn } from ${JSON.stringify(BUILD)};
    for (let round = 0; round < ${rounds}; round++) {
      const fresh = ${JSON.stringify(target)} + '.building-' + process.pid + '-' + round;
      fs.mkdirSync(fresh);
      fs.writeFileSync(fresh + '/index.html', String(process.pid));
      swapIn(fresh, ${JSON.stringify(target)});
    }`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('swapIn', () => {
  it('puts the fresh folder in place of the old one and leaves nothing beside', () => {
    const dir = tempDir();
    const target = path.join(dir, 'renderer');
    for (const content of ['one', 'two']) {
      const fresh = path.join(dir, `fresh-${content}`);
      fs.mkdirSync(fresh);
      fs.writeFileSync(path.join(fresh, 'index.html'), content);
      swapIn(fresh, target);
      expect(fs.readFileSync(path.join(target, 'index.html'), 'utf8')).toBe(content);
    }
    expect(fs.readdirSync(dir)).toEqual(['renderer']);
  });

  it('survives two builds swapping at once: both finish, one folder stays', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'renderer');
    const results = await Promise.all([swapper(target, 300), swapper(target, 300)]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['renderer']);
    expect(fs.existsSync(path.join(target, 'index.html'))).toBe(true);
  }, 60_000);
});
