/**
 * Catches a rendering failure in one screen so the shell (navigation, header) stays usable, and
 * says what happened and what to try.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { EmptyState } from './empty-state.tsx';

/** Props: the screen, and a key that resets the boundary when it changes (the route). */
interface Props {
  children: ReactNode;
  resetKey: string;
}

interface State {
  error: Error | null;
  resetKey: string;
}

/** Shows a recoverable error panel in place of a screen that failed to render. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  /** Records the failure so the next render shows the panel. */
  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  /** Clears the failure when the user moves to another screen. */
  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // The console is where a developer looks first; the panel tells the user what to do.
    console.error('Bindery screen failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <EmptyState
        icon="alert"
        title="This screen failed to show"
        actions={
          <button type="button" className="btn" onClick={() => window.location.reload()}>
            Reload
          </button>
        }
      >
        {this.state.error.message}. Reload the window; if it happens again, restart Bindery and report this message.
      </EmptyState>
    );
  }
}
