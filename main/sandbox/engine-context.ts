/**
 * What every part of the sandbox engine shares: the store of its records, the folders, the commit
 * journal, the clock, the activity log and the event listeners.
 */
import type { ProvisionProgress } from './provision/index.ts';
import type { journal as JournalModule } from './commit/index.ts';
import type { SandboxLayout } from './provision/index.ts';
import type { SandboxStore } from './store.ts';
import type { SandboxChangeList, SandboxStatusValue } from '../../shared/dto.ts';

/** The commit journal's functions (main/sandbox/commit/journal/index.ts), injected so tests can add fault hooks. */
export type CommitJournal = Pick<typeof JournalModule, 'applyTransaction' | 'undoTransaction' | 'recoverTransactions' | 'abandonTransaction'>;

/** Events the engine reports: provisioning progress, sandbox status, live change lists. */
export type SandboxEvent =
  | ({ type: 'progress'; planId: string; resourceId: string; sandboxId: string } & ProvisionProgress)
  | { type: 'status'; planId: string; sandboxId: string; status: SandboxStatusValue }
  | { type: 'changes'; planId: string; sandboxId: string; changes: SandboxChangeList }
  /** Recovery finished an interrupted commit or undo of one of the plan's sandboxes. */
  | { type: 'recovered'; planId: string; sandboxId: string };

/** Shared state of one engine instance. */
export interface EngineContext {
  store: SandboxStore;
  layout: SandboxLayout;
  journal: CommitJournal;
  trashDays: number;
  /** The current time as an ISO string. */
  now(): string;
  emit(event: SandboxEvent): void;
}

/** Appends a line to the activity log. */
export function logEvent(context: EngineContext, kind: string, planId: string | null, sandboxId: string | null, message: string): void {
  context.store.logActivity({ at: context.now(), kind, planId, sandboxId, message });
}
