/**
 * Sandbox strategy defaults of custom types. A new type gets a copy unless someone asks for
 * `none`, because `none` lets a tool change the original folder with nothing to review or undo.
 */
import type { SandboxStrategy } from '../../shared/model.ts';

/** The strategy a new custom type gets when none is given. */
export const DEFAULT_TYPE_STRATEGY: SandboxStrategy = 'copy_on_write';

/** The warning to show where strategy `none` is chosen for a type or resource named `subject`. */
export function inPlaceWarning(subject: string): string {
  return `warning: ${subject} uses sandbox strategy none: tools change the original folder in place, with nothing to review, commit or undo. Use copy_on_write (or git_worktree) to work on a copy.`;
}
