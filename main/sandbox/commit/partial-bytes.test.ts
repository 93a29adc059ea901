/**
 * A partial commit writes the original's bytes wherever nothing was chosen: bytes that are not
 * UTF-8 (a Latin-1 file), a BOM, CRLF and a missing last newline come through untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, writeFiles } from '../../testing/fixtures.ts';
import { ConflictError } from '../../../shared/errors.ts';
import { textsFingerprint } from '../../../shared/patch-selection.ts';
import { caught, newManager, plainDir } from '../../testing/sandbox/harness.ts';

const lines = (edit: Record<number, string> = {}, eol = '\n') => Array.from({ length: 20 }, (_, i) => `${edit[i + 1] ?? `line ${i + 1}`}`).join(eol);

describe('partial commit bytes', () => {
  it('keeps Latin-1 bytes of lines not chosen byte for byte', async () => {
    const { manager, plan } = newManager();
    const before = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(`\n${lines()}\n`)]);
    const original = plainDir({});
    fs.writeFileSync(path.join(original, 'l1.txt'), before);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    const after = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(`\n${lines({ 10: 'ten', 20: 'twenty' })}\n`)]);
    fs.writeFileSync(path.join(sandbox.path, 'l1.txt'), after);
    await manager.commit(sandbox.id, { paths: ['l1.txt'], selections: { 'l1.txt': { hunks: [2] } } });
    const expected = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(`\n${lines({ 20: 'twenty' })}\n`)]);
    expect(fs.readFileSync(path.join(original, 'l1.txt')).equals(expected)).toBe(true);
  });

  it('keeps a BOM, CRLF and a missing last newline', async () => {
    const { manager, plan } = newManager();
    const original = plainDir({ 'w.txt': `\uFEFF${lines({}, '\r\n')}` });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'w.txt': `\uFEFF${lines({ 1: 'one', 20: 'twenty' }, '\r\n')}\r\n` });
    await manager.commit(sandbox.id, { paths: ['w.txt'], selections: { 'w.txt': { hunks: [2] } } });
    expect(fs.readFileSync(path.join(original, 'w.txt'), 'utf8')).toBe(`\uFEFF${lines({ 20: 'twenty' }, '\r\n')}\r\n`);
    await manager.commit(sandbox.id, { paths: ['w.txt'], selections: { 'w.txt': { hunks: [1] } } });
    expect(fs.readFileSync(path.join(original, 'w.txt'), 'utf8')).toBe(`\uFEFF${lines({ 1: 'one', 20: 'twenty' }, '\r\n')}\r\n`);
  });
});

describe('partial commit onto an original that holds some of the hunks already', () => {
  it('takes hunks committed earlier as done, not as conflicts, so "the rest" can follow', async () => {
    const { manager, plan } = newManager();
    const body = (edit: Record<number, string> = {}) => `${lines(edit)}\n${lines(edit)}\n`;
    const original = gitRepo({ 'f.txt': body() });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'git_worktree' });
    // Four hunks: lines 2, 12, 22 and 32 (edits at 2 and 12, repeated 20 lines on).
    writeFiles(sandbox.path, { 'f.txt': body({ 2: 'two', 12: 'twelve' }) });
    const theirs = `top\n${body()}`;
    fs.writeFileSync(path.join(original, 'f.txt'), theirs);
    await manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [3, 4] } } });
    const afterFirst = fs.readFileSync(path.join(original, 'f.txt'), 'utf8');
    expect(afterFirst).toBe(`top\n${lines()}\n${lines({ 2: 'two', 12: 'twelve' })}\n`);
    // The viewer still numbers all four hunks against the base; choosing them all takes the rest.
    await manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [2, 3, 4] } } });
    expect(fs.readFileSync(path.join(original, 'f.txt'), 'utf8')).toBe(`top\n${lines({ 12: 'twelve' })}\n${lines({ 2: 'two', 12: 'twelve' })}\n`);
    await manager.undo(sandbox.id);
    expect(fs.readFileSync(path.join(original, 'f.txt'), 'utf8')).toBe(afterFirst);
  });
});

describe('a choice made on texts the file no longer holds', () => {
  it('is refused, even with the current list version, when the file changed to the same size and counts', async () => {
    const { manager, plan } = newManager();
    const original = plainDir({ 'f.txt': `${lines()}\n` });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'f.txt': `${lines({ 2: 'two', 18: 'eighteen' })}\n` });
    const texts = textsFingerprint(`${lines()}\n`, `${lines({ 2: 'two', 18: 'eighteen' })}\n`);
    // The agent rewrites the chosen line after the person chose: same size, same counts.
    writeFiles(sandbox.path, { 'f.txt': `${lines({ 2: 'TWO', 18: 'eighteen' })}\n` });
    const { version } = await manager.changes(sandbox.id);
    const error = await caught(manager.commit(sandbox.id, { paths: ['f.txt'], expectedVersion: version, selections: { 'f.txt': { hunks: [1], texts } } }));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toMatch(/f\.txt changed after its hunks and lines were chosen.*choose them again/);
    expect(fs.readFileSync(path.join(original, 'f.txt'), 'utf8')).toBe(`${lines()}\n`);
    const now = textsFingerprint(`${lines()}\n`, `${lines({ 2: 'TWO', 18: 'eighteen' })}\n`);
    await manager.commit(sandbox.id, { paths: ['f.txt'], expectedVersion: version, selections: { 'f.txt': { hunks: [1], texts: now } } });
    expect(fs.readFileSync(path.join(original, 'f.txt'), 'utf8')).toBe(`${lines({ 2: 'TWO' })}\n`);
  });
});

describe.each(['copy_on_write', 'git_worktree'] as const)('undo of the second of two partial commits (%s)', (strategy) => {
  it('restores the state after the first: its bytes, and the rest pending against it', async () => {
    const { manager, plan } = newManager();
    const base = `${lines()}\n${lines()}\n`;
    const original = strategy === 'git_worktree' ? gitRepo({ 'f.txt': base }) : plainDir({ 'f.txt': base });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    const edit = { 2: 'two', 12: 'twelve' };
    writeFiles(sandbox.path, { 'f.txt': `${lines(edit)}\n${lines(edit)}\n` });
    await manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [1, 3] } } });
    const afterFirst = `${lines({ 2: 'two' })}\n${lines({ 2: 'two' })}\n`;
    expect(fs.readFileSync(path.join(original, 'f.txt'), 'utf8')).toBe(afterFirst);
    await manager.commit(sandbox.id, { paths: ['f.txt'], selections: { 'f.txt': { hunks: [1, 2] } } });
    expect((await manager.changes(sandbox.id)).changes.filter((c) => c.drift !== 'applied')).toEqual([]);
    await manager.undo(sandbox.id);
    expect(fs.readFileSync(path.join(original, 'f.txt'), 'utf8')).toBe(afterFirst);
    const left = (await manager.changes(sandbox.id)).changes.filter((c) => c.drift !== 'applied');
    expect(left).toMatchObject([{ path: 'f.txt', drift: 'clean', additions: 2, deletions: 2 }]);
    const rest = await manager.diff(sandbox.id, 'f.txt');
    expect(rest.kind === 'text' && rest.hunks.length).toBe(2);
    await manager.undo(sandbox.id);
    expect(fs.readFileSync(path.join(original, 'f.txt'), 'utf8')).toBe(base);
    expect((await manager.changes(sandbox.id)).changes).toMatchObject([{ path: 'f.txt', drift: 'clean', additions: 4, deletions: 4 }]);
  });
});
