/**
 * The diff viewer's options that outlive one file: hiding whitespace changes, remembered between
 * sessions. Other features read `hideWhitespace` here (a partial commit of hunks or lines is
 * refused while it is on, because the lines drawn are not the lines that would be written).
 */
import { create } from 'zustand';

/** The key under which the whitespace option is remembered. */
export const HIDE_WHITESPACE_KEY = 'bindery.diff.hideWhitespace';

/** The options store's state. */
export interface DiffOptionsState {
  hideWhitespace: boolean;
  setHideWhitespace: (on: boolean) => void;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Reads the remembered value: only the exact string "true" turns it on. */
export function readHideWhitespace(store: Pick<Storage, 'getItem'> | null): boolean {
  try {
    return store?.getItem(HIDE_WHITESPACE_KEY) === 'true';
  } catch {
    return false;
  }
}

/** The diff options, one store for every diff view. */
export const useDiffOptions = create<DiffOptionsState>()((set) => ({
  hideWhitespace: readHideWhitespace(storage()),
  setHideWhitespace: (on) => {
    set({ hideWhitespace: on });
    try {
      storage()?.setItem(HIDE_WHITESPACE_KEY, String(on));
    } catch {
      // A full or disabled storage only forgets the choice at the next start.
    }
  },
}));
