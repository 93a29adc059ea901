/**
 * A trash purge in one process while another restores the same entry: the purge must wait and then
 * leave the restored entry alone (its files, and the commit backups its undo needs).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';
import { tsxArgs } from '../../testing/child-process.ts';

const child = path.join(import.meta.dirname, '../../testing/sandbox/trash-crash-child.ts');

describe('purging the trash while another process restores an entry', () => {
  it('waits for the restore, then leaves the entry and the backups of its commits alone', async () => {
    const { manager, plan, dataDir } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'committed\n' });
    await manager.commit(sandbox.id);
    writeFiles(sandbox.path, { 'work.txt': 'not committed yet\n' });
    const { trashId } = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };

    // The child pauses at its restore's first rename (its flag set, nothing moved yet).
    const proc = spawn(process.execPath, tsxArgs(child, [dataDir, 'restore', trashId, 'rename', '', '1', 'pause']), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const ended = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
    while (!fs.existsSync(path.join(dataDir, 'paused'))) await new Promise((resolve) => setTimeout(resolve, 20));
    const purging = manager.purgeTrash({ all: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    fs.writeFileSync(path.join(dataDir, 'go'), '');
    const [purged] = await Promise.all([purging, ended]);

    expect(JSON.parse(out)).toMatchObject({ ok: { status: 'ready' } });
    expect(purged).toEqual([]);
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('not committed yet\n');
    // The restored sandbox undoes its commit again: its backup is still there.
    await manager.undo(sandbox.id);
    expect(fs.readFileSync(path.join(original, 'a.txt'), 'utf8')).toBe('a\n');
  });
});

describe('a start-up recovery in another process while a discard is under way', () => {
  it('leaves the discard alone at the moment its trash folder is made but not yet flagged', async () => {
    const { manager, plan, dataDir } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'work.txt': 'work\n' });

    // The child pauses just before writing its discarding flag.
    const proc = spawn(process.execPath, tsxArgs(child, [dataDir, 'discard', sandbox.id, 'writeFile', 'discarding', '1', 'pause']), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const ended = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
    while (!fs.existsSync(path.join(dataDir, 'paused'))) await new Promise((resolve) => setTimeout(resolve, 20));
    await manager.recover();
    fs.writeFileSync(path.join(dataDir, 'go'), '');
    await ended;

    expect(JSON.parse(out)).toMatchObject({ ok: { kind: 'discarded' } });
    const [entry] = manager.listTrash();
    expect(fs.readFileSync(path.join(entry!.trashPath, 'files', 'work.txt'), 'utf8')).toBe('work\n');
  });
});
