/** `bindery doctor` and a data directory Bindery cannot write to, on real folders and real processes. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { runCli, runCliProcess } from '../testing/cli-process.ts';
import { openBindery } from './bindery.ts';
import { runDoctor } from './doctor.ts';

const KB = 1024;
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

function writeBytes(file: string, bytes: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(bytes, 1));
}

describe('doctor: disk use', () => {
  it('shows the data directory in all and by part, counting a hard-linked backup once', async () => {
    const data = tempDir('bindery-doctor-');
    openBindery(data).close();
    writeBytes(path.join(data, 'sandboxes', 'PLAN', 'app-1', 'big.bin'), 1024 * KB);
    writeBytes(path.join(data, 'trash', 'T1', 'files', 'gone.bin'), 64 * KB);
    const backup = path.join(data, 'journal', '01J00000000000000000000000', 'backup', '0');
    writeBytes(backup, 256 * KB);
    fs.linkSync(backup, path.join(data, 'sandboxes', 'PLAN', 'app-1', 'linked.bin'));
    writeBytes(path.join(data, 'handlers', 'h.py'), 8 * KB);

    const { checks, diskUse } = await runDoctor(data, { core: () => openBindery(data) });
    expect(diskUse.database).toBeGreaterThan(0);
    expect(diskUse.sandboxes).toBeGreaterThanOrEqual(1024 * KB);
    expect(diskUse.sandboxes).toBeLessThan((1024 + 256) * KB);
    expect(diskUse.trash).toBeGreaterThanOrEqual(64 * KB);
    expect(diskUse.journal).toBeGreaterThanOrEqual(256 * KB);
    expect(diskUse.other).toBeGreaterThanOrEqual(8 * KB);
    expect(diskUse.total).toBe(diskUse.database + diskUse.sandboxes + diskUse.trash + diskUse.journal + diskUse.other);
    const detail = checks.find((check) => check.name === 'disk use')!.detail;
    expect(detail).toMatch(/^\S+ \S+ in all: database \S+ \S+, sandboxes 1\.\d MB, trash \d+ KB, journal backups \d+ KB, other \d+ KB$/);
  });

  it('is in doctor --json as bytes, and the doctor creates no database where there is none', async () => {
    const data = tempDir('bindery-doctor-');
    const result = await runCli(data, ['--json', 'doctor']);
    const report = result.json<{ disk_use: Record<string, number>; checks: Array<{ name: string; ok: boolean }> }>();
    expect(Object.keys(report.disk_use)).toEqual(['total', 'database', 'sandboxes', 'trash', 'journal', 'other']);
    expect(report.checks.map((check) => check.name)).toEqual(['git', 'data directory', 'database', 'interrupted work', 'disk use']);
    expect(fs.existsSync(path.join(data, 'bindery.db'))).toBe(false);
  });
});

/** Runs the real `bindery` as a user whom permissions bind (nobody, when the tests run as root). */
function binderyAsOrdinaryUser(data: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const user = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
  const run = runCliProcess(data, args, { env: { ...process.env, HOME: os.tmpdir(), BINDERY_HOME: '' }, ...user });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('a data directory Bindery cannot write to', () => {
  it.each([
    ['new', false],
    ['holding a database', true],
  ])('(%s) is named with what to do, by commands and by doctor, not as an unexpected failure', (_case, withDatabase) => {
    const data = tempDir('bindery-readonly-');
    if (withDatabase) openBindery(data).close();
    fs.chmodSync(data, 0o555);
    try {
      const listed = binderyAsOrdinaryUser(data, ['types', 'list']);
      expect(listed.status).toBe(1);
      expect(listed.stderr).not.toContain('Unexpected failure');
      expect(listed.stderr).toContain(`Bindery cannot write to its data directory ${data}: ${data} is not writable`);
      expect(listed.stderr).toMatch(/Make it writable for this user .* or choose another data directory with --data-dir or BINDERY_HOME/);

      const doctor = binderyAsOrdinaryUser(data, ['--json', 'doctor']);
      expect(doctor.status).toBe(1);
      const report = JSON.parse(doctor.stdout) as { checks: Array<{ name: string; ok: boolean; detail: string }> };
      expect(report.checks.find((check) => check.name === 'data directory')).toMatchObject({
        ok: false,
        detail: expect.stringContaining(`Bindery cannot write to its data directory ${data}`),
      });
      expect(doctor.stdout).not.toContain('Unexpected failure');
    } finally {
      fs.chmodSync(data, 0o755);
    }
  });
});
