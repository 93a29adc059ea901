/**
 * Which sandbox file a diff view shows, for choosing its hunks and lines: given by the review's
 * diff panel only, so a diff elsewhere (a conflict in the commit dialog) offers no choosing.
 */
import { createContext, useContext } from 'react';

/** The file of a sandbox's review and the version of its change the diff was loaded for. */
export interface PartialScope {
  plan: string;
  sandbox: string;
  path: string;
  version: string;
  /** Whether the file is left out of the next commit (the review's file checkbox). */
  excluded: boolean;
  /** The review's file checkbox setter (a stable store action). */
  setSelected(paths: string[], selected: boolean): void;
}

/** The scope of the diff view inside it; null where no partial commit is offered. */
export const PartialScopeContext = createContext<PartialScope | null>(null);

/** The partial commit scope of the enclosing diff, if any. */
export function usePartialScope(): PartialScope | null {
  return useContext(PartialScopeContext);
}
