/**
 * One slot of the binding inspector: its mode, access and required flag, the outcome (bound,
 * deferred, unbound or error), every candidate with the reason it fitted or not and which one the
 * rule chose, and the buttons that fix an error (set an alias, link a resource).
 */
import { useState, type ReactElement } from 'react';
import type { ResourceListItem } from '../../../../shared/dto.ts';
import type { BindingResult } from '../../../../shared/model.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { AccessBadge } from '../plans/access-badge.tsx';
import { BINDING_LABELS } from '../../lib/labels.ts';
import type { BindingFix } from './binding-fixes.ts';

/** What the card shows and what its controls do. */
export interface SlotCardProps {
  result: BindingResult;
  /** The resource name a bound slot got, looked up by id. */
  boundName: string | null;
  fixes: BindingFix[];
  /** Parameter slots: the compatible resources and the current choice. */
  choices: ResourceListItem[] | null;
  param: string;
  onParam(value: string): void;
  onFix(fix: BindingFix, resourceName?: string): Promise<void>;
  /** The bound resource, when its folder is missing. */
  missing?: ResourceListItem | null;
  onFixLocation?(resource: ResourceListItem): void;
}

type Outcome = 'bound' | 'deferred' | 'unbound' | 'error';

function outcomeOf(result: BindingResult): Outcome {
  if (result.error) return 'error';
  if (result.deferred) return 'deferred';
  return result.resourceId ? 'bound' : 'unbound';
}

/** The card of one slot. */
export function SlotCard({
  result,
  boundName,
  fixes,
  choices,
  param,
  onParam,
  onFix,
  missing = null,
  onFixLocation,
}: SlotCardProps): ReactElement {
  const outcome = outcomeOf(result);
  const { explanation } = result;
  return (
    <section className={`slot-card is-${missing ? 'error' : outcome}`} aria-label={`Slot ${result.slotName}`}>
      <header className="slot-card-header">
        <span className="slot-card-name mono">{result.slotName}</span>
        <span className="badge">{BINDING_LABELS[result.bindingMode]}</span>
        <AccessBadge access={result.access} />
        <span className="chip">{result.resourceType}</span>
        {!result.required && <span className="badge">optional</span>}
        <span className="header-spacer" />
        <OutcomeLabel outcome={outcome} boundName={boundName} />
      </header>
      <div className="slot-card-body">
        {missing && (
          <div className="slot-missing" role="alert">
            <Icon name="alert" />
            <span>
              The folder of <strong>{missing.name}</strong> is missing: <code className="mono">{missing.location}</code>. A plan
              cannot be provisioned from it until it is back or the resource points at its new place.
            </span>
            <button type="button" className="btn btn-sm" onClick={() => onFixLocation?.(missing)}>
              <Icon name="edit" /> Fix location…
            </button>
          </div>
        )}
        <p className="slot-summary">{explanation.summary}</p>
        <p className="slot-rule">
          <span className="slot-rule-label">Rule</span> {explanation.rule}
        </p>
        {choices && (
          <ParameterPicker slot={result.slotName} choices={choices} value={param} onChange={onParam} />
        )}
        {explanation.candidates.length > 0 && <CandidatesTable result={result} />}
        {result.error && (
          <div className="slot-error">
            <ErrorCallout error={`${result.error}${explanation.fix ? ` ${explanation.fix}` : ''}`} />
            {fixes.length > 0 && <FixButtons fixes={fixes} onFix={onFix} />}
          </div>
        )}
      </div>
    </section>
  );
}

function OutcomeLabel({ outcome, boundName }: { outcome: Outcome; boundName: string | null }): ReactElement {
  switch (outcome) {
    case 'bound':
      return (
        <span className="slot-outcome is-bound">
          <Icon name="check" /> {boundName ?? 'bound'}
        </span>
      );
    case 'deferred':
      return <span className="slot-outcome is-deferred">Deferred: choose at provisioning</span>;
    case 'unbound':
      return <span className="slot-outcome">Unbound (optional)</span>;
    case 'error':
      return (
        <span className="slot-outcome is-error">
          <Icon name="alert" /> Not bound
        </span>
      );
  }
}

function CandidatesTable({ result }: { result: BindingResult }): ReactElement {
  return (
    <table className="simple-table candidates-table" aria-label={`Candidates for ${result.slotName}`}>
      <thead>
        <tr>
          <th style={{ width: 28 }} aria-label="Compatible" />
          <th>Resource</th>
          <th>Type</th>
          <th>Alias</th>
          <th>Why</th>
          <th style={{ width: 80 }} aria-label="Chosen" />
        </tr>
      </thead>
      <tbody>
        {result.explanation.candidates.map((c) => (
          <tr key={c.resourceId} className={c.chosen ? 'is-chosen' : c.compatible ? '' : 'is-incompatible'}>
            <td>
              {c.compatible ? (
                <Icon name="check" label="compatible" />
              ) : (
                <Icon name="close" label="not compatible" />
              )}
            </td>
            <td className="mono">{c.resourceName}</td>
            <td>
              <span className="chip">{c.resourceType}</span>
            </td>
            <td className="mono">{c.alias ?? <span className="faint">—</span>}</td>
            <td className="candidate-reason">{c.reason}</td>
            <td>{c.chosen && <span className="badge badge-success">chosen</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ParameterPicker({
  slot,
  choices,
  value,
  onChange,
}: {
  slot: string;
  choices: ResourceListItem[];
  value: string;
  onChange(value: string): void;
}): ReactElement {
  return (
    <label className="param-picker">
      <span className="field-label">Resource for {slot}</span>
      <select
        className="select"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-label={`Resource for ${slot}`}
      >
        <option value="">Decide when provisioning (deferred)</option>
        {choices.map((r) => (
          <option key={r.id} value={r.name}>
            {r.name} ({r.typeName})
          </option>
        ))}
      </select>
    </label>
  );
}

function FixButtons({ fixes, onFix }: { fixes: BindingFix[]; onFix: SlotCardProps['onFix'] }): ReactElement {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [linkChoice, setLinkChoice] = useState('');
  const run = async (fix: BindingFix, name?: string) => {
    setBusy(true);
    setError(null);
    try {
      await onFix(fix, name);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="slot-fixes">
      {fixes.map((fix) =>
        fix.kind === 'alias' ? (
          <button
            key={fix.resourceId}
            type="button"
            className="btn btn-sm"
            disabled={busy}
            onClick={() => void run(fix)}
          >
            <Icon name="edit" /> Set alias “{fix.alias}” on {fix.resourceName}
          </button>
        ) : fix.resources.length === 0 ? (
          <span key="link" className="muted">
            No registered resource fits: register a folder of a compatible type on the Resources screen.
          </span>
        ) : (
          <span key="link" className="slot-link-fix">
            <select
              className="select"
              value={linkChoice}
              onChange={(event) => setLinkChoice(event.target.value)}
              aria-label="Resource to link"
            >
              <option value="">Choose a resource…</option>
              {fix.resources.map((r) => (
                <option key={r.id} value={r.name}>
                  {r.name} ({r.typeName})
                </option>
              ))}
            </select>
            <button
              type="button"
              className="btn btn-sm"
              disabled={busy || linkChoice === ''}
              onClick={() => void run(fix, linkChoice)}
            >
              <Icon name="link" /> Link to project
            </button>
          </span>
        ),
      )}
      <ErrorCallout error={error} />
    </div>
  );
}
