/** A resource's sandbox strategy: the type's default, or an override of its own. */
import type { ReactElement } from 'react';
import { SANDBOX_STRATEGIES, type SandboxStrategy } from '../../../../shared/model.ts';
import { Field } from '../../components/field.tsx';
import { Options } from '../../components/options.tsx';
import { STRATEGY_HINTS, STRATEGY_LABELS } from '../../lib/labels.ts';
import { InPlaceWarning } from '../types/strategy-field.tsx';

/** The select; '' means "use the type's default". */
export function StrategySelect(props: { value: SandboxStrategy | ''; onChange: (value: SandboxStrategy | '') => void; typeDefault: SandboxStrategy | null; error: string | null }): ReactElement {
  const { value, onChange, typeDefault, error } = props;
  const effective = value || typeDefault;
  return (
    <>
      <Field label="Sandbox strategy" error={error} hint={effective ? STRATEGY_HINTS[effective] : undefined}>
        <select className="select" value={value} onChange={(event) => onChange(event.target.value as SandboxStrategy | '')}>
          <option value="">Type default{typeDefault ? ` (${STRATEGY_LABELS[typeDefault]})` : ''}</option>
          <Options values={SANDBOX_STRATEGIES} labels={STRATEGY_LABELS} />
        </select>
      </Field>
      {effective === 'none' && <InPlaceWarning subject="this resource" />}
    </>
  );
}
