/** What every area of the API object is built from. */
import type { HostKind } from '../../../shared/dto.ts';
import type { Bindery } from '../bindery.ts';
import type { ContractEventSink } from '../plan-events.ts';

/** The open core plus the host's identity. */
export interface ApiContext {
  bindery: Bindery;
  host: HostKind;
  /** Where plan, sandbox and run events go (the host's event bus). */
  events?: ContractEventSink;
  /** Shows a folder in the OS file manager; only the desktop host has one. */
  revealPath?: (path: string) => Promise<void>;
}
