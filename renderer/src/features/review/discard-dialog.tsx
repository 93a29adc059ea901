/**
 * Confirms a discard with what it would throw away: the change counts of each sandbox (they go to
 * the recoverable trash), or why the changes are unknown, with force as an explained choice.
 */
import { useState, type ReactElement } from 'react';
import type { DiscardReport } from '../../../../shared/dto.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSubmit } from '../../hooks/use-submit.ts';
import { formatCount } from '../../lib/counts.ts';

/** The pending outcomes to confirm and the action that discards. */
export interface DiscardDialogProps {
  title: string;
  pending: DiscardReport[];
  onConfirm(force: boolean): Promise<DiscardReport[]>;
  onDone(reports: DiscardReport[]): void;
  onClose(): void;
}

/** The discard confirmation. */
export function DiscardDialog({
  title,
  pending,
  onConfirm,
  onDone,
  onClose,
}: DiscardDialogProps): ReactElement {
  const unknown = pending.filter((r) => r.outcome === 'unknown');
  const [force, setForce] = useState(false);
  const state = useSubmit(async () => onConfirm(force), onDone, {
    label: title,
    success: (reports) => reports.map((r) => r.summary).join(' '),
  });
  const total = pending.reduce((sum, r) => sum + (r.counts?.total ?? 0) + (r.counts?.ignored ?? 0), 0);
  return (
    <FormDialog
      title={title}
      submitLabel="Move to trash"
      busyLabel="Discarding…"
      state={state}
      onClose={onClose}
      blocked={unknown.length > 0 && !force}
      danger
      alert
    >
      <p>
        {total > 0
          ? `${formatCount(total, 'change')} will be removed from the sandbox`
          : 'The sandbox will be removed'}{' '}
        and kept in the trash, where you can restore
        {total === 1 ? ' it' : ' them'} until it expires. The originals are not touched.
      </p>
      <ul className="confirm-list" aria-label="What will be discarded">
        {pending.map((r) => (
          <li key={r.sandboxId}>
            <strong>{r.resourceName}</strong>:{' '}
            {r.outcome === 'unknown'
              ? r.reason
              : r.summary.replace(/^.*? has /, '').replace(/: confirm.*$/, '')}
          </li>
        ))}
      </ul>
      {unknown.length > 0 && (
        <label className="check-item" style={{ padding: 0 }}>
          <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} />
          <span>
            <strong>Discard even though the changes are unknown</strong>
            <span className="field-hint" style={{ display: 'block' }}>
              Bindery could not tell what changed, so it cannot be sure nothing is lost. What is in the
              sandbox still goes to the trash.
            </span>
          </span>
        </label>
      )}
      <ErrorCallout error={state.error} />
    </FormDialog>
  );
}
