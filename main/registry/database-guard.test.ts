/** The database guard across processes: a damaged database started by several at once is copied aside once. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { tsxEvalArgs } from '../testing/child-process.ts';

const opener = `import { openDatabase } from ${JSON.stringify(path.join(import.meta.dirname, 'database.ts'))};
try { openDatabase(process.argv[1]); } catch (error) { process.stdout.write(String(error.code)); }`;

function open(file: string): Promise<string> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, tsxEvalArgs(opener, [file]), { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('exit', () => resolve(out));
  });
}

describe('a damaged database', () => {
  it('is copied aside exactly once when several processes start on it together, and no partial copy is left', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'bindery.db');
    // Big enough that the copies overlap.
    fs.writeFileSync(file, Buffer.alloc(48 << 20, 'not a database '));
    const codes = await Promise.all([1, 2, 3, 4].map(() => open(file)));
    expect(codes).toEqual(['database_corrupt', 'database_corrupt', 'database_corrupt', 'database_corrupt']);
    const copies = fs.readdirSync(dir).filter((name) => name !== 'bindery.db');
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatch(/^bindery\.db\.corrupt-/);
    expect(fs.statSync(path.join(dir, copies[0]!)).size).toBe(48 << 20);
  });
});

describe('an empty (zero-byte) database', () => {
  it('is refused beside the locks a used registry leaves after its journals and trash were purged', async () => {
    const { openDatabase } = await import('./database.ts');
    const dir = tempDir();
    const file = path.join(dir, 'bindery.db');
    fs.writeFileSync(file, '');
    fs.mkdirSync(path.join(dir, 'locks'));
    fs.writeFileSync(path.join(dir, 'locks', '0123abcd.lock'), '');
    expect(() => openDatabase(file)).toThrow(/is empty \(0 bytes\), but locks\/ beside it/);
    expect(fs.statSync(file).size).toBe(0);
    // Alone, or in a brand-new data directory, it starts.
    const fresh = tempDir();
    fs.writeFileSync(path.join(fresh, 'bindery.db'), '');
    openDatabase(path.join(fresh, 'bindery.db')).close();
    openDatabase(path.join(tempDir(), 'new', 'bindery.db')).close();
  });
});
