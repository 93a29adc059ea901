/** The README's CLI walk-through must keep working exactly as printed. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_ENV, tempDir } from '../testing/fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The walk-through's shell blocks (the resolution, then the plan), as one script. */
function walkThrough(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('A walk-through you can paste');
  const blocks = [...readme.slice(start).matchAll(/```sh\n([\s\S]*?)```/g)].slice(0, 2).map((match) => match[1]!);
  if (blocks.length < 2) throw new Error('README walk-through not found');
  return blocks.join('\n');
}

describe('README walk-through', () => {
  it('runs from a fresh data directory and binds the mixed tool', () => {
    const output = execFileSync('bash', ['-e', '-c', walkThrough()], {
      cwd: ROOT,
      encoding: 'utf8',
      // Its `mktemp -d` folders go in a temp folder the test removes.
      env: { ...GIT_ENV, BINDERY_HOME: '', TMPDIR: tempDir('bindery-readme-') },
      timeout: 120_000,
    });
    expect(output).toMatch(/repo\s+contextual\s+read_write\s+local\/app/);
    expect(output).toContain('"slot_name": "output"');
    expect(output).toMatch(/database\s+ok/);
    expect(output).toMatch(/A\s+notes\.txt\s+\+1 -0\s+clean/);
    expect(output).toContain('+made in the sandbox');
    expect(output).toMatch(/local\/app: wrote 1 file\(s\), deleted 0\.\nmade in the sandbox\n/);
    expect(output).toContain('Undone: 1 file(s) restored.');
    expect(output).toMatch(/Discarded the sandbox of local\/app; its changes are in the trash as \S+/);
  }, 120_000);
});
