/**
 * Opens Bindery over one data directory: the database and the services that share it. Every
 * host (app, CLI, web) starts here.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { BindingResolutionService } from '../core/binding-resolution.ts';
import { ResourceHandlerService } from '../handlers/resource-handler-service.ts';
import { DATABASE_FILE, openDatabase } from '../registry/database.ts';
import * as journal from '../sandbox/journal/index.ts';
import { SandboxManager } from '../sandbox/sandbox-manager.ts';
import { PlanService } from './plan-service.ts';
import { RegistryService } from './registry-service.ts';

/** The open core over one data directory. */
export interface Bindery {
  dataDir: string;
  db: Database;
  registry: RegistryService;
  bindings: BindingResolutionService;
  sandboxes: SandboxManager;
  /** Plans over the handler pipeline; its first use runs start-up recovery (plans.recover()). */
  plans: PlanService;
  close(): void;
}

/** Creates the data directory if needed and opens the registry in it. */
export function openBindery(dataDir: string): Bindery {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(path.join(dataDir, DATABASE_FILE));
  const registry = new RegistryService(db);
  const bindings = new BindingResolutionService(registry.resolutionRegistry());
  const sandboxes = new SandboxManager({ db, dataDir, journal });
  const handlers = new ResourceHandlerService({
    sandboxManager: sandboxes,
    resourceLookup: (id) => registry.showResource(id),
    typeLookup: (name) => registry.showType(name),
    handlersDir: path.join(dataDir, 'handlers'),
  });
  const plans = new PlanService({ db, registry, bindings, sandboxes, handlers });
  return { dataDir, db, registry, bindings, sandboxes, plans, close: () => db.close() };
}
