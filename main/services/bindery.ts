/**
 * Opens Bindery over one data directory: the database and the services that share it. Every
 * host (app, CLI, web) starts here.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { BindingResolutionService } from '../core/binding-resolution.ts';
import { DATABASE_FILE, openDatabase } from '../registry/database.ts';
import { RegistryService } from './registry-service.ts';

/** The open core over one data directory. */
export interface Bindery {
  dataDir: string;
  db: Database;
  registry: RegistryService;
  bindings: BindingResolutionService;
  close(): void;
}

/** Creates the data directory if needed and opens the registry in it. */
export function openBindery(dataDir: string): Bindery {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(path.join(dataDir, DATABASE_FILE));
  const registry = new RegistryService(db);
  return {
    dataDir,
    db,
    registry,
    bindings: new BindingResolutionService(registry.resolutionRegistry()),
    close: () => db.close(),
  };
}
