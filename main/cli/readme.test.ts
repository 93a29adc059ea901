/** The README's CLI walk-through must keep working exactly as printed. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_ENV } from '../testing/fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function walkThrough(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('A walk-through you can paste');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start));
  if (!block?.[1]) throw new Error('README walk-through not found');
  return block[1];
}

describe('README walk-through', () => {
  it('runs from a fresh data directory and binds the mixed tool', () => {
    const output = execFileSync('bash', ['-e', '-c', walkThrough()], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...GIT_ENV, BINDERY_HOME: '' },
      timeout: 120_000,
    });
    expect(output).toMatch(/repo\s+contextual\s+read_write\s+local\/app/);
    expect(output).toContain('"slot_name": "output"');
    expect(output).toMatch(/database\s+ok/);
  }, 120_000);
});
