/** What every area of the API object is built from. */
import type { HostKind } from '../../../shared/dto.ts';
import type { Bindery } from '../bindery.ts';

/** The open core plus the host's identity. */
export interface ApiContext {
  bindery: Bindery;
  host: HostKind;
  /** Runs work whose registry change events must not reach the UI (dry runs that roll back). */
  quietly<T>(work: () => T): T;
  /** Shows a folder in the OS file manager; only the desktop host has one. */
  revealPath?: (path: string) => Promise<void>;
}
