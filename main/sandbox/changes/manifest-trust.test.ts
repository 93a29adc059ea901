import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BinderyError } from '../../../shared/errors.ts';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { metaDir } from '../provision/index.ts';
import { manifestFile } from './manifest.ts';
import { sealedFile } from './manifest-file.ts';
import { exists, newManager } from '../../testing/sandbox/harness.ts';

/** A copied sandbox with two changes a tool made: one file edited, one added. */
async function changedSandbox() {
  const { manager, plan } = newManager();
  const original = tempDir('bindery-orig-');
  writeFiles(original, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`d${i % 3}/f${i}.txt`, `${i}\n`])));
  const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
  writeFiles(sandbox.path, { 'd1/f1.txt': 'hours of work\n', 'new.txt': 'more work\n' });
  return { manager, sandbox, plan };
}

const listed = async (manager: Awaited<ReturnType<typeof changedSandbox>>['manager'], id: string) => (await manager.changes(id)).changes.map((c) => `${c.kind} ${c.path}`);

describe("a copied sandbox's base manifest", () => {
  it('keeps finding the changes when the baseline marker beside the sandbox is touched, so discard still asks first', async () => {
    const { manager, sandbox } = await changedSandbox();
    // What `touch <sandbox>.bindery/baseline` (or a backup or sync tool) does: a marker stamped after the tool's writes.
    const marker = path.join(metaDir(sandbox.path), 'baseline');
    await new Promise((resolve) => setTimeout(resolve, 20));
    fs.writeFileSync(marker, 'touched');
    expect(await listed(manager, sandbox.id)).toEqual(['modified d1/f1.txt', 'added new.txt']);
    expect(await manager.discard(sandbox.id)).toMatchObject({ kind: 'needs_confirmation', counts: { total: 2 } });
    expect(fs.readFileSync(path.join(sandbox.path, 'd1/f1.txt'), 'utf8')).toBe('hours of work\n');
  });

  it('makes the changes unknown when it was altered or removed, and discard refuses without force', async () => {
    const { manager, sandbox } = await changedSandbox();
    const sealed = sealedFile(manifestFile(metaDir(sandbox.path)));
    const good = fs.readFileSync(sealed);
    const altered = Buffer.from(good);
    // A byte in the numbers, as a bad disk or a careless tool might change it.
    altered[good.length - 100] = altered[good.length - 100]! ^ 0x40;
    fs.writeFileSync(sealed, altered);
    const error = await manager.changes(sandbox.id).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(BinderyError);
    expect((error as Error).message).toMatch(/cannot be trusted: its checksum does not match/);
    expect(await manager.discard(sandbox.id)).toMatchObject({ kind: 'unknown' });
    expect(await manager.discard(sandbox.id, { yes: true })).toMatchObject({ kind: 'unknown' });
    expect(exists(path.join(sandbox.path, 'new.txt'))).toBe(true);

    fs.rmSync(sealed);
    expect(await manager.discard(sandbox.id, { yes: true })).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/cannot be read/) });
    expect(exists(path.join(sandbox.path, 'new.txt'))).toBe(true);
    // Forced, the whole folder goes to the trash, not away.
    const forced = await manager.discard(sandbox.id, { yes: true, force: true });
    expect(forced).toMatchObject({ kind: 'discarded', trashId: expect.any(String) });
  });

  it('makes the changes unknown when the manifest was swapped for a symlink, even to a valid manifest', async () => {
    const { manager, sandbox, plan } = await changedSandbox();
    // A second sandbox of the same original, provisioned after the tool's writes in the first: its manifest is sound, its baseline later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: sandbox.originalPath, sandboxStrategy: 'copy_on_write' });
    const sealed = sealedFile(manifestFile(metaDir(sandbox.path)));
    fs.rmSync(sealed);
    fs.symlinkSync(sealedFile(manifestFile(metaDir(other.path))), sealed);
    const error = await manager.changes(sandbox.id).then((list) => list.changes.map((c) => c.path), (e: unknown) => e);
    expect(error).toBeInstanceOf(BinderyError);
    expect((error as Error).message).toMatch(/cannot be trusted/);
    expect(await manager.discard(sandbox.id, { yes: true })).toMatchObject({ kind: 'unknown' });
    expect(exists(path.join(sandbox.path, 'new.txt'))).toBe(true);
    // A FIFO in its place is refused too, not waited on forever.
    fs.rmSync(sealed);
    execFileSync('mkfifo', [sealed]);
    await expect(manager.changes(sandbox.id)).rejects.toThrow(/cannot be trusted: .*not a regular file/);
  });

  it('makes the changes unknown when its metadata folder was swapped for a symlink to another sandbox\'s', async () => {
    const { manager, sandbox, plan } = await changedSandbox();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: sandbox.originalPath, sandboxStrategy: 'copy_on_write' });
    const meta = metaDir(sandbox.path);
    fs.renameSync(meta, `${meta}.aside`);
    fs.symlinkSync(metaDir(other.path), meta);
    await expect(manager.changes(sandbox.id)).rejects.toThrow(/cannot be trusted: .*symlink/);
    expect(await manager.discard(sandbox.id, { yes: true })).toMatchObject({ kind: 'unknown' });
  });

  it('still finds every change of a sandbox made before the seal, whatever its marker says', async () => {
    const { manager, sandbox } = await changedSandbox();
    // The loose three files older versions wrote, and a marker touched after the tool's writes.
    const stem = manifestFile(metaDir(sandbox.path));
    const { readManifest } = await import('./manifest.ts');
    const manifest = readManifest(stem);
    const entries = [...manifest].map(([, entry]) => entry);
    fs.writeFileSync(`${stem}.paths`, entries.map((e) => `${e.path}\0`).join(''));
    fs.writeFileSync(`${stem}.stats`, new Uint8Array(new Float64Array(entries.flatMap((e) => [e.size, e.mtimeMs, e.mode, e.ino, 0, 0, e.ctimeMs ?? NaN])).buffer));
    fs.writeFileSync(`${stem}.extra.json`, '{}');
    fs.rmSync(sealedFile(stem));
    fs.writeFileSync(path.join(metaDir(sandbox.path), 'baseline'), 'touched');
    expect(await listed(manager, sandbox.id)).toEqual(['modified d1/f1.txt', 'added new.txt']);
  });
});
