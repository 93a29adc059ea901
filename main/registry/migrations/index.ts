/** Every migration, in order. Add new ones at the end; never edit a released one. */
import { migration001 } from './001-initial.ts';
import { migration002 } from './002-plans.ts';
import { migration003 } from './003-committed-states.ts';
import { migration004 } from './004-agent-access.ts';
import { migration005 } from './005-review.ts';
import type { Migration } from './migration.ts';

export const MIGRATIONS: readonly Migration[] = [migration001, migration002, migration003, migration004, migration005];

/** The schema version this build writes. */
export const LATEST_VERSION = MIGRATIONS.length === 0 ? 0 : MIGRATIONS[MIGRATIONS.length - 1]!.version;
