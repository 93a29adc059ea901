/** Migration 1: types, resources, projects with links, tools with slots; built-in types. */
import type { Migration } from './migration.ts';

const BUILT_IN_TIME = '1970-01-01T00:00:00.000Z';

export const migration001: Migration = {
  version: 1,
  name: 'initial registry',
  up(db) {
    db.exec(`
      CREATE TABLE resource_types (
        name TEXT PRIMARY KEY,
        description TEXT NOT NULL DEFAULT '',
        parent_types TEXT NOT NULL DEFAULT '[]',
        handler TEXT,
        sandbox_strategy TEXT NOT NULL CHECK (sandbox_strategy IN ('git_worktree', 'copy_on_write', 'none')),
        built_in INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE resources (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        type_name TEXT NOT NULL REFERENCES resource_types (name),
        location TEXT NOT NULL,
        sandbox_strategy TEXT CHECK (sandbox_strategy IN ('git_worktree', 'copy_on_write', 'none')),
        description TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX resources_by_type ON resources (type_name);

      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        description TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE project_links (
        project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        resource_id TEXT NOT NULL REFERENCES resources (id),
        alias TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (project_id, resource_id),
        UNIQUE (project_id, alias)
      ) STRICT;
      CREATE INDEX project_links_by_resource ON project_links (resource_id);

      CREATE TABLE tools (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        description TEXT NOT NULL DEFAULT '',
        run TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE tool_slots (
        tool_id TEXT NOT NULL REFERENCES tools (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        resource_type TEXT NOT NULL,
        access TEXT NOT NULL CHECK (access IN ('read_only', 'read_write', 'write_only')),
        binding TEXT NOT NULL CHECK (binding IN ('contextual', 'static', 'parameter')),
        static_resource TEXT,
        required INTEGER NOT NULL,
        PRIMARY KEY (tool_id, position),
        UNIQUE (tool_id, name)
      ) STRICT;
      CREATE INDEX tool_slots_by_static_resource ON tool_slots (static_resource) WHERE static_resource IS NOT NULL;
      CREATE INDEX tool_slots_by_type ON tool_slots (resource_type);
    `);
    const seed = db.prepare(
      `INSERT INTO resource_types (name, description, parent_types, handler, sandbox_strategy, built_in, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
    );
    seed.run(
      'git-checkout',
      'A git work tree; sandboxed as a git worktree of its current working state.',
      '[]',
      'cleveragents.resource.handlers.git_checkout:GitCheckoutHandler',
      'git_worktree',
      BUILT_IN_TIME,
      BUILT_IN_TIME,
    );
    seed.run(
      'fs-directory',
      'A plain directory; sandboxed as a copy-on-write copy.',
      '["git-checkout"]',
      'cleveragents.resource.handlers.fs_directory:FsDirectoryHandler',
      'copy_on_write',
      BUILT_IN_TIME,
      BUILT_IN_TIME,
    );
  },
};
