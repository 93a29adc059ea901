/**
 * The live status of one resource's folder. The cell asks for its status when it mounts, and
 * the table only mounts the rows in view, so statuses are fetched lazily and in batches.
 */
import { useEffect, type ReactElement } from 'react';
import type { ResourceStatus } from '../../../../shared/dto.ts';
import { Icon } from '../../components/icons.tsx';
import { useResources } from '../../stores/resources-store.ts';

/** Branch and dirty count, or why they are missing. */
export function StatusCell({ resourceId }: { resourceId: string }): ReactElement {
  const status = useResources((state) => state.statuses[resourceId]);
  const request = useResources((state) => state.requestStatuses);
  useEffect(() => {
    if (!status) request([resourceId]);
  }, [status, request, resourceId]);
  if (!status) return <span className="status faint">checking…</span>;
  return <StatusView status={status} />;
}

function StatusView({ status }: { status: ResourceStatus }): ReactElement {
  if (status.locationMissing) {
    return (
      <span className="status" title="The folder is gone: restore it, or edit the resource to point at its new place." data-status="missing">
        <span className="status-dot" data-tone="bad" />
        location missing
      </span>
    );
  }
  if (status.gitBranch === null) {
    return (
      <span className="status" title={status.problem ?? 'A plain folder: no git status.'} data-status="folder">
        <span className="status-dot" data-tone="ok" />
        folder
      </span>
    );
  }
  const dirty = status.dirtyCount;
  const summary = dirty === null ? '' : dirty === 0 ? 'clean' : `${dirty} changed`;
  return (
    <span className="status" title={status.problem ?? `On branch ${status.gitBranch}${summary ? `, ${summary}` : ''}`} data-status="git">
      <span className="status-dot" data-tone={dirty ? 'warn' : 'ok'} />
      <Icon name="branch" size={12} />
      <span className="mono truncate">{status.gitBranch}</span>
      <span className="faint status-count">{summary}</span>
    </span>
  );
}
