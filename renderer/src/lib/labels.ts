/** Words the UI uses for the model's enumerations, in one place so every screen says the same. */
import type { AccessMode, BindingMode, SandboxStrategy } from '../../../shared/model.ts';
import { formatCount } from './counts.ts';

/** Sandbox strategies as people read them. */
export const STRATEGY_LABELS: Record<SandboxStrategy, string> = {
  git_worktree: 'Git worktree',
  copy_on_write: 'Copy on write',
  none: 'None (in place)',
};

/** One sentence per strategy, for the pickers. */
export const STRATEGY_HINTS: Record<SandboxStrategy, string> = {
  git_worktree: 'A detached git worktree of the current state; falls back to a copy when the folder is not a work tree.',
  copy_on_write: 'A copy of the folder (a filesystem clone where supported).',
  none: 'No sandbox: tools change the original folder directly.',
};

/** Access modes as people read them. */
export const ACCESS_LABELS: Record<AccessMode, string> = {
  read_only: 'read only',
  read_write: 'read / write',
  write_only: 'write only',
};

/** Binding modes as people read them. */
export const BINDING_LABELS: Record<BindingMode, string> = {
  contextual: 'contextual',
  static: 'static',
  parameter: 'parameter',
};

/** "1 slot", "3 slots": a count with its noun in the right number. */
export function plural(count: number, noun: string): string {
  return formatCount(count, noun);
}
