/**
 * The diff viewer's public surface for the review screens: the component, its props and the
 * file DTO it renders (which the contract may later move to shared/).
 */
export { DiffView, type DiffViewProps } from './diff-view.tsx';
export {
  displayPath,
  type DiffFile,
  type DiffMode,
} from './file-diff.ts';
export { DiffStat } from './diff-header.tsx';
export type { ChangeStep } from './text-diff-view.tsx';
export { useDiffOptions, type DiffOptionsState } from './diff-options.ts';
