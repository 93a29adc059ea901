/** The trash: discarded sandbox changes, recoverable until they expire; restore one, or empty it. */
import { useEffect, useState, type ReactElement } from 'react';
import { describeCounts } from '../../../../shared/dto.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { STRATEGY_LABELS } from '../../lib/labels.ts';
import { useActivity } from '../../stores/activity-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { fullTime, shortId, timeAgo } from '../plans/plan-labels.ts';
import { goTo } from '../plans/plan-route.ts';

/** The trash tab. */
export function TrashView(): ReactElement {
  const trash = useActivity((s) => s.trash);
  const refreshTrash = useActivity((s) => s.refreshTrash);
  const restore = useActivity((s) => s.restore);
  const purge = useActivity((s) => s.purge);
  const toast = useUi((s) => s.toast);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmPurge, setConfirmPurge] = useState(false);
  useEffect(() => void refreshTrash(), [refreshTrash]);
  const live = trash.items.filter((t) => t.restoredAt === null);

  const onRestore = async (id: string, planId: string, name: string) => {
    setBusy(id);
    try {
      await restore(id);
      toast(`Restored the sandbox of ${name}; its plan is ready for review again.`);
      goTo({ kind: 'plan', planId });
    } catch (error) {
      toast(errorMessage(error), 'error');
    } finally {
      setBusy(null);
    }
  };

  if (live.length === 0) {
    return (
      <div className="grid grid-fill">
        <EmptyState
          icon="trash"
          title={trash.status === 'ready' ? 'The trash is empty' : 'Loading the trash…'}
        >
          {trash.status === 'ready' &&
            'Discarded sandboxes with changes land here, and can be restored until they expire.'}
        </EmptyState>
      </div>
    );
  }
  return (
    <>
      <div className="toolbar">
        <span className="muted">
          Discarded changes are kept until their expiry date, then removed by “Remove expired”.
        </span>
        <span className="header-spacer" />
        <button
          type="button"
          className="btn btn-sm"
          onClick={() =>
            void purge(false).then((p) =>
              toast(
                p.length
                  ? `Removed ${p.length} expired entr${p.length === 1 ? 'y' : 'ies'}.`
                  : 'Nothing has expired yet.',
              ),
            )
          }
        >
          Remove expired
        </button>
        <button type="button" className="btn btn-sm btn-danger" onClick={() => setConfirmPurge(true)}>
          <Icon name="trash" /> Empty trash
        </button>
      </div>
      <ErrorCallout error={trash.status === 'error' ? trash.error : null} />
      <div className="grid grid-fill trash-list-wrap">
        <table className="simple-table" aria-label="Trash">
          <thead>
            <tr>
              <th>Resource</th>
              <th>Discarded changes</th>
              <th style={{ width: 110 }}>Plan</th>
              <th style={{ width: 120 }}>Discarded</th>
              <th style={{ width: 120 }}>Expires</th>
              <th style={{ width: 110 }} aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {live.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <div className="strong">{entry.resourceName}</div>
                  <div className="muted mono truncate" title={entry.originalPath}>
                    {STRATEGY_LABELS[entry.strategy]} · {entry.originalPath}
                  </div>
                </td>
                <td>{describeCounts(entry.counts)}</td>
                <td className="mono">{shortId(entry.planId)}</td>
                <td title={fullTime(entry.createdAt)}>{timeAgo(entry.createdAt)}</td>
                <td title={fullTime(entry.expiresAt)}>{new Date(entry.expiresAt).toLocaleDateString()}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-sm"
                    disabled={busy !== null}
                    aria-label={`Restore ${entry.resourceName}`}
                    onClick={() => void onRestore(entry.id, entry.planId, entry.resourceName)}
                  >
                    {busy === entry.id ? 'Restoring…' : 'Restore'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {confirmPurge && (
        <ConfirmDialog
          title="Empty the trash"
          message="These discarded changes will be deleted for good; they can no longer be restored."
          items={live.map((t) => `${t.resourceName}: ${describeCounts(t.counts)}`)}
          itemsLabel="Deleted for good"
          confirmLabel="Delete for good"
          onConfirm={async () => {
            const purged = await purge(true);
            toast(`Deleted ${purged.length} trash entr${purged.length === 1 ? 'y' : 'ies'}.`);
          }}
          onClose={() => setConfirmPurge(false)}
        />
      )}
    </>
  );
}
