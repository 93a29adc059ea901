/**
 * The tool's `run` command on the plan page: start it, watch its output live, stop it, and read
 * how it ended. The output is kept by main, so a page opened mid-run catches up.
 */
import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { RunInfo } from '../../../../shared/dto.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { usePolling } from '../../stores/plans-sync.ts';
import { useRuns } from '../../stores/runs-store.ts';
import { runStatusLabel } from './plan-labels.ts';
import './run-panel.css';

/** Props: the plan, its command, whether it can run now, and its last run. */
export interface RunPanelProps {
  planId: string;
  command: string;
  runnable: boolean;
  lastRun: RunInfo | null;
  onFinished(): void;
}

/** The run panel. */
export function RunPanel({ planId, command, runnable, lastRun, onFinished }: RunPanelProps): ReactElement {
  const [runId, setRunId] = useState<string | null>(lastRun?.id ?? null);
  const view = useRuns((s) => (runId ? s.runs[runId] : undefined));
  const start = useRuns((s) => s.start);
  const stop = useRuns((s) => s.stop);
  const catchUp = useRuns((s) => s.catchUp);
  const [error, setError] = useState<unknown>(null);
  const outputRef = useRef<HTMLPreElement>(null);
  const running = view?.info.status === 'running';
  const status = view?.info.status ?? null;

  useEffect(() => {
    if (lastRun && lastRun.id !== runId) setRunId(lastRun.id);
  }, [lastRun, runId]);
  useEffect(() => {
    if (runId) void catchUp(runId);
  }, [runId, catchUp]);
  usePolling(() => (runId ? catchUp(runId) : undefined), 700, running);
  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;
  useEffect(() => {
    if (status && status !== 'running') finishedRef.current();
  }, [status]);
  useEffect(() => {
    const pre = outputRef.current;
    if (pre) pre.scrollTop = pre.scrollHeight;
  }, [view?.chunks.length]);

  const onRun = async () => {
    setError(null);
    try {
      setRunId((await start(planId)).id);
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section className="run-panel" aria-label="Tool run">
      <header className="run-panel-header">
        <span className="section-title">Run</span>
        <code className="mono run-command" title={command}>
          $ {command}
        </code>
        <span className="header-spacer" />
        {view && (
          <span className={`run-status is-${view.info.status}`} role="status">
            {running && <span className="spinner" aria-hidden="true" />}
            {runStatusLabel(view.info.status, view.info.exitCode)}
            {view.info.durationMs !== null && (
              <span className="muted"> · {(view.info.durationMs / 1000).toFixed(1)} s</span>
            )}
          </span>
        )}
        {running ? (
          <button type="button" className="btn btn-danger btn-sm" onClick={() => runId && void stop(runId)}>
            <Icon name="close" /> Stop
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            disabled={!runnable}
            onClick={() => void onRun()}
            title={runnable ? 'Run the command in the sandboxes' : 'The plan has no live sandboxes to run in'}
          >
            <Icon name="refresh" /> {view ? 'Run again' : 'Run tool'}
          </button>
        )}
      </header>
      <ErrorCallout error={error ?? view?.info.error ?? null} />
      {view ? (
        <pre className="run-output" ref={outputRef} aria-label="Run output" tabIndex={0}>
          {view.info.truncated && <span className="muted">… earlier output dropped …{'\n'}</span>}
          {view.chunks.map((chunk) => (
            <span key={chunk.seq} className={chunk.stream === 'stderr' ? 'is-stderr' : undefined}>
              {chunk.text}
            </span>
          ))}
          {view.chunks.length === 0 && (
            <span className="muted">{running ? 'Waiting for output…' : 'No output.'}</span>
          )}
        </pre>
      ) : (
        <p className="muted run-hint">
          The command runs with each slot's sandbox path in BINDERY_SLOT_&lt;NAME&gt;, in the first read/write
          sandbox. Changes appear below as it works.
        </p>
      )}
    </section>
  );
}
