/**
 * Whether a file of the open review is partly chosen for the next commit (some hunks or lines),
 * for its row in the file list, and the way back to taking it whole.
 */
import type { ChangedFile } from '../../../../../shared/dto.ts';
import { changeSignature, useReview } from '../../../stores/review-store.ts';
import { entryAt, selectionKey, usePartialSelection } from './selection-store.ts';

/** The partial choice of `change` (null when it is taken whole or left out). */
export function usePartlyChosen(change: ChangedFile): { takeAll(): void } | null {
  const plan = useReview((s) => s.planId);
  const sandbox = useReview((s) => s.sandboxId);
  const key = plan && sandbox ? selectionKey(plan, sandbox, change.path) : '';
  const partly = usePartialSelection((s) => (key ? entryAt(s, key, changeSignature(change)) !== undefined : false));
  if (!partly) return null;
  return { takeAll: () => usePartialSelection.getState().clear(key) };
}
