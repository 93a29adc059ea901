/**
 * Test child: discards a sandbox (yes and force) or restores a trash entry through a SandboxManager,
 * and at the nth call of fs.<hook> whose first or second argument ends with <match> either SIGKILLs
 * itself ("kill") or writes <dataDir>/paused and waits for <dataDir>/go ("pause"), so the tests can
 * prove what recovery does after a crash, or while this process is still at work. The outcome is
 * printed as JSON. Hook `*` counts the calls of every file-changing fs function; mode "count" kills
 * nothing and prints how many calls matched (`calls`), so crash trials can pick a random one.
 * Run: node --import tsx trash-crash-child.ts <dataDir> discard|restore <id> <hook> <match> <nth> kill|pause|count [sandboxesRoot]
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../../registry/database.ts';
import { SqliteSandboxStore } from '../../registry/sandbox-store.ts';
import * as journal from '../../sandbox/commit/journal/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';

const [dataDir, action, id, hook, match, nth, mode, sandboxesRoot] = process.argv.slice(2) as string[];
const patched = fs as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
const CHANGING = ['rename', 'copyFile', 'writeFile', 'appendFile', 'rm', 'rmdir', 'unlink', 'mkdir', 'mkdtemp', 'chmod', 'utimes', 'symlink', 'link', 'open'];
let seen = 0;
for (const name of hook === '*' ? CHANGING : [hook!]) {
  const original = patched[name]!;
  patched[name] = async (...args: unknown[]) => {
    if ((String(args[0]).endsWith(match!) || String(args[1]).endsWith(match!)) && ++seen === Number(nth) && mode !== 'count') {
      if (mode === 'kill') process.kill(process.pid, 'SIGKILL');
      fsSync.writeFileSync(path.join(dataDir!, 'paused'), '');
      while (!fsSync.existsSync(path.join(dataDir!, 'go'))) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return original(...args);
  };
}
const manager = new SandboxManager({ store: new SqliteSandboxStore(openDatabase(path.join(dataDir!, 'bindery.db'))), dataDir: dataDir!, journal, sandboxesRoot });
try {
  const result = action === 'discard' ? await manager.discard(id!, { yes: true, force: true }) : await manager.restoreTrash(id!);
  process.stdout.write(JSON.stringify({ ok: result, calls: seen }));
} catch (error) {
  process.stdout.write(JSON.stringify({ error: (error as Error).message }));
}
