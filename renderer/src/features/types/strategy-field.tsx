/**
 * The sandbox strategy picker of the type dialog. A new type starts on copy on write; choosing
 * none shows a warning beside the picker, because tools then change the original in place.
 */
import type { ReactElement } from 'react';
import { SANDBOX_STRATEGIES, type SandboxStrategy } from '../../../../shared/model.ts';
import { Field } from '../../components/field.tsx';
import { Icon } from '../../components/icons.tsx';
import { Options } from '../../components/options.tsx';
import { STRATEGY_HINTS, STRATEGY_LABELS } from '../../lib/labels.ts';

/** The strategy a type being added starts with (the same default as the API's). */
export const NEW_TYPE_STRATEGY: SandboxStrategy = 'copy_on_write';

/** The picker and, for strategy none, the in-place warning. */
export function StrategyField(props: { value: SandboxStrategy; onChange: (value: SandboxStrategy) => void; disabled: boolean; error?: string | null }): ReactElement {
  const { value, onChange, disabled, error } = props;
  return (
    <>
      <Field label="Sandbox strategy" hint={STRATEGY_HINTS[value]} error={error}>
        <select className="select" value={value} onChange={(event) => onChange(event.target.value as SandboxStrategy)} disabled={disabled}>
          <Options values={SANDBOX_STRATEGIES} labels={STRATEGY_LABELS} />
        </select>
      </Field>
      {value === 'none' && <InPlaceWarning subject="a resource of this type" />}
    </>
  );
}

/** The warning shown beside a strategy picker set to none (types here, resources in their dialogs). */
export function InPlaceWarning({ subject }: { subject: string }): ReactElement {
  return (
    <div className="callout callout-warning" role="alert">
      <Icon name="alert" />
      <span>
        No sandbox: a tool on {subject} changes the original folder in place, with nothing to review, commit or undo. Choose Copy on write to work on a
        copy.
      </span>
    </div>
  );
}
