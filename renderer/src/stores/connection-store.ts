/**
 * Whether the host answers (issue 22): the shell shows a bar and disables the screens' actions
 * while it does not; screens may read `connected` to explain or skip work that needs the host.
 */
import { create } from 'zustand';
import { onConnection, type ConnectionStatus } from '../api/index.ts';

/** The connection as the screens see it. */
export interface ConnectionState {
  status: ConnectionStatus;
  /** False while the host is known to be unreachable or refusing this page: actions are disabled then. */
  connected: boolean;
}

/** The connection store; fed by startConnectionWatch. */
export const useConnection = create<ConnectionState>(() => ({ status: 'connecting', connected: true }));

/** Follows the transport's connection status; returns the unsubscribe function. */
export function startConnectionWatch(): () => void {
  return onConnection((_up, status) => useConnection.setState({ status, connected: status === 'connected' || status === 'connecting' }));
}
