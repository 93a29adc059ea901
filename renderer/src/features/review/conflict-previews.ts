/**
 * The merge dry runs of a commit dialog's conflicts, asked for once when it opens, so Merge is
 * offered only for the files where the three-way merge will succeed.
 */
import { useEffect, useState } from 'react';
import type { ChangedFile, MergePreview } from '../../../../shared/dto.ts';
import { api } from '../../api/index.ts';
import { useReview } from '../../stores/review-store.ts';

/** A path's dry run: pending, done, or failed with the reason. */
export type PreviewState = { kind: 'pending' } | { kind: 'done'; preview: MergePreview } | { kind: 'failed'; error: unknown };

/** Whether a three-way merge could apply at all (text modified in place): only these are tried. */
export function mergeable(change: ChangedFile): boolean {
  return change.kind === 'modified' && !change.binary;
}

/** Dry runs for `conflicts` of the sandbox under review, by path. */
export function useMergePreviews(conflicts: ChangedFile[]): Record<string, PreviewState> {
  const planId = useReview((s) => s.planId);
  const sandboxId = useReview((s) => s.sandboxId);
  const [states, setStates] = useState<Record<string, PreviewState>>({});
  const key = conflicts.map((c) => c.path).join('\0');
  useEffect(() => {
    if (!planId || !sandboxId) return;
    let live = true;
    const paths = conflicts.filter(mergeable).map((c) => c.path);
    setStates(Object.fromEntries(paths.map((path) => [path, { kind: 'pending' } as PreviewState])));
    for (const path of paths) {
      api.mergePreview({ plan: planId, sandbox: sandboxId, path }).then(
        (preview) => live && setStates((prev) => ({ ...prev, [path]: { kind: 'done', preview } })),
        (error: unknown) => live && setStates((prev) => ({ ...prev, [path]: { kind: 'failed', error } })),
      );
    }
    return () => {
      live = false;
    };
  }, [planId, sandboxId, key]); // eslint-disable-line react-hooks/exhaustive-deps
  return states;
}

/** Why Merge is not offered for a change, in the dialog's words; null when it is. */
export function mergeUnavailable(change: ChangedFile, state: PreviewState | undefined): string | null {
  if (!mergeable(change)) {
    return change.binary
      ? 'Merge works on text; this is a binary file.'
      : `Merge needs a file edited on both sides; this one was ${change.kind} in the sandbox.`;
  }
  if (!state || state.kind === 'pending') return 'Trying the merge…';
  if (state.kind === 'failed') return `The merge could not be tried: ${state.error instanceof Error ? state.error.message : String(state.error)}`;
  return state.preview.outcome === 'clean' ? null : state.preview.reason;
}
