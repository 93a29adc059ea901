/** For crash children: a SandboxManager over a data folder whose journal runs with fault hooks. */
import path from 'node:path';
import { openDatabase } from '../../registry/database.ts';
import { SqliteSandboxStore } from '../../registry/sandbox-store.ts';
import * as journal from '../../sandbox/commit/journal/index.ts';
import type { JournalHooks } from '../../sandbox/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';

/** A manager of `dataDir` whose commits run with the `apply` hooks and undos with the `undo` hooks (none where not given). */
export function hookedManager(dataDir: string, hooks: { apply?: JournalHooks; undo?: JournalHooks }): SandboxManager {
  const db = openDatabase(path.join(dataDir, 'bindery.db'));
  return new SandboxManager({
    store: new SqliteSandboxStore(db),
    dataDir,
    journal: {
      ...journal,
      applyTransaction: (input) => journal.applyTransaction(hooks.apply ? { ...input, hooks: hooks.apply } : input),
      undoTransaction: (input) => journal.undoTransaction(hooks.undo ? { ...input, hooks: hooks.undo } : input),
    },
  });
}
