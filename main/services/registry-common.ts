/**
 * What the registry's use cases share: the context they write through (database, clock, change
 * notices) and the small checks more than one entity applies.
 */
import type { Database } from 'better-sqlite3';
import { ValidationError } from '../../shared/errors.ts';
import { SANDBOX_STRATEGIES, type SandboxStrategy } from '../../shared/model.ts';

/** Which registry entity changed, for listeners that refresh views. */
export type RegistryChange = 'types' | 'resources' | 'projects' | 'tools';

/** The open database, the clock as a timestamp, and the change notice of one RegistryService. */
export interface RegistryContext {
  db: Database;
  stamp(): string;
  emit(change: RegistryChange): void;
}

/** Trimmed, non-empty, each once, in first-seen order. */
export function dedupe(values: string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter(Boolean))];
}

/** The strategy, or a ValidationError listing the known ones. */
export function checkStrategy(strategy: string): SandboxStrategy {
  if ((SANDBOX_STRATEGIES as readonly string[]).includes(strategy)) return strategy as SandboxStrategy;
  throw new ValidationError(`Unknown sandbox strategy "${strategy}": use one of ${SANDBOX_STRATEGIES.join(', ')}.`, { field: 'sandbox_strategy' });
}

/** "resources a, b; tools c" for the groups that have names; empty when none has. */
export function describeDependents(groups: Record<string, string[]>): string {
  return Object.entries(groups)
    .filter(([, names]) => names.length > 0)
    .map(([label, names]) => `${label} ${names.join(', ')}`)
    .join('; ');
}
