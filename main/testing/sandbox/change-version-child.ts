/**
 * Test child: prints the change-list version of one sandbox as a separate process computes it, so
 * the tests can prove a list made by one host is accepted by a commit in another.
 * Run: node --import tsx change-version-child.ts <dataDir> <sandboxId>
 */
import path from 'node:path';
import { openDatabase } from '../../registry/database.ts';
import { SqliteSandboxStore } from '../../registry/sandbox-store.ts';
import * as journal from '../../sandbox/commit/journal/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';

const [dataDir, sandboxId] = process.argv.slice(2) as [string, string];
const manager = new SandboxManager({ store: new SqliteSandboxStore(openDatabase(path.join(dataDir, 'bindery.db'))), dataDir, journal });
process.stdout.write(`${(await manager.changes(sandboxId)).version}\n`);
