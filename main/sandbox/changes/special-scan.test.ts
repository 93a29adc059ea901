import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, writeFiles } from '../../testing/fixtures.ts';
import { encodeName } from '../fs/index.ts';
import { findSpecialFiles, ignoredOf, walkSpecials } from './special-scan.ts';

describe.skipIf(process.platform === 'win32')('finding the special files of a worktree sandbox', () => {
  it('finds FIFOs and sockets at any depth and by exact name, with find and without, leaving .git out; ignored ones are told apart', async () => {
    const repo = gitRepo({ '.gitignore': 'build/\n', 'a.txt': 'a\n' });
    writeFiles(repo, { 'deep/er/file.txt': 'x\n', 'build/out.txt': 'y\n' });
    const odd = 'odd\udcffpipe';
    execFileSync('mkfifo', [path.join(repo, 'deep/er/pipe'), path.join(repo, 'build/pipe'), path.join(repo, '.git/pipe')]);
    // A name that is not UTF-8 (byte 0xff): made plain, then renamed through bytes.
    execFileSync('mkfifo', [path.join(repo, 'deep/plain')]);
    fs.renameSync(path.join(repo, 'deep/plain'), Buffer.concat([Buffer.from(`${repo}/deep/`), encodeName(odd)]));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(repo, 'sock'), resolve));
    try {
      const expected = ['build/pipe', 'deep/er/pipe', `deep/${odd}`, 'sock'];
      expect((await findSpecialFiles(repo)).sort()).toEqual(expected);
      expect(walkSpecials(repo).sort()).toEqual(expected);
      expect([...(await ignoredOf(repo, expected))]).toEqual(['build/pipe']);
      expect(fs.existsSync(path.join(repo, '.git/pipe'))).toBe(true);
    } finally {
      server.close();
    }
  });
});
