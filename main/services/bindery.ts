/**
 * Opens Bindery over one data directory: the database and the services that share it. Every
 * host (app, CLI, web, MCP) starts here, with `startBindery` (or `openBindery` and then `start()`
 * once), so interrupted work is finished or undone before anything is shown or done.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { BindingResolutionService } from '../core/binding-resolution.ts';
import { ResourceHandlerService } from '../handlers/resource-handler-service.ts';
import { unwritableDataDir } from '../registry/database-guard.ts';
import { DATABASE_FILE, openDatabase, useNativeBinding } from '../registry/database.ts';
import { SqliteSandboxStore } from '../registry/sandbox-store.ts';
import { journal, SandboxManager, useLockNativeBinding } from '../sandbox/index.ts';
import { PlanService } from './plan-service.ts';
import { RegistryService } from './registry-service.ts';
import { recoverAtStart, type StartRecovery } from './start-recovery.ts';

/** The open core over one data directory. */
/** Points every SQLite opener (the registry and the commit locks) at a native build, e.g. Electron's ABI. */
export function useNativeBindings(file: string | undefined): void {
  useNativeBinding(file);
  useLockNativeBinding(file);
}

export interface Bindery {
  dataDir: string;
  db: Database;
  registry: RegistryService;
  bindings: BindingResolutionService;
  sandboxes: SandboxManager;
  /** Plans over the handler pipeline; its first use runs the full recovery (plans.recover()). */
  plans: PlanService;
  /**
   * Finishes or undoes interrupted work (start-recovery.ts): every host awaits it once before
   * anything else; later calls return the same report. Never rejects.
   */
  start(): Promise<StartRecovery>;
  close(): void;
}

/** Opens the core over `dataDir` and runs its start-up recovery: what every host does first. */
export async function startBindery(dataDir: string): Promise<Bindery> {
  const bindery = openBindery(dataDir);
  await bindery.start();
  return bindery;
}

/** Creates the data directory if needed and opens the registry in it (see `start()`). */
export function openBindery(dataDir: string): Bindery {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw unwritableDataDir(dataDir, error) ?? error;
  }
  const db = openDatabase(path.join(dataDir, DATABASE_FILE));
  const registry = new RegistryService(db);
  const bindings = new BindingResolutionService(registry.resolutionRegistry());
  const sandboxes = new SandboxManager({ store: new SqliteSandboxStore(db), dataDir, journal });
  const handlers = new ResourceHandlerService({
    sandboxManager: sandboxes,
    resourceLookup: (id) => registry.showResource(id),
    typeLookup: (name) => registry.showType(name),
    handlersDir: path.join(dataDir, 'handlers'),
  });
  const plans = new PlanService({ db, registry, bindings, sandboxes, handlers });
  let started: Promise<StartRecovery> | undefined;
  const core: Bindery = {
    dataDir,
    db,
    registry,
    bindings,
    sandboxes,
    plans,
    start: () => (started ??= recoverAtStart(core)),
    close: () => db.close(),
  };
  return core;
}
