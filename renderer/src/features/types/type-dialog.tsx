/**
 * Add or edit a resource type: name, parent types (only choices that keep the graph acyclic),
 * handler specifier (custom handlers are trusted code, and the dialog says so), strategy (a new
 * type starts on copy_on_write; choosing none shows a warning, as tools then work in place).
 */
import { useState, type ReactElement } from 'react';
import type { ResourceTypeSpec, SandboxStrategy } from '../../../../shared/model.ts';
import { parentChoices } from '../../../../shared/type-graph.ts';
import { Field } from '../../components/field.tsx';
import { Icon } from '../../components/icons.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSubmit } from '../../hooks/use-submit.ts';
import { formErrors } from '../../lib/errors.ts';
import { useTypes } from '../../stores/types-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { NEW_TYPE_STRATEGY, StrategyField } from './strategy-field.tsx';

const FIELDS = ['name', 'description', 'parentTypes', 'handler', 'sandboxStrategy'] as const;

/** The add/edit dialog; `type` null adds a new one. */
export function TypeDialog({ type, types, onClose }: { type: ResourceTypeSpec | null; types: ResourceTypeSpec[]; onClose: () => void }): ReactElement {
  const { add, update } = useTypes();
  const toast = useUi((state) => state.toast);
  const [name, setName] = useState(type?.name ?? '');
  const [description, setDescription] = useState(type?.description ?? '');
  const [parents, setParents] = useState<string[]>(type?.parentTypes ?? []);
  const [handler, setHandler] = useState(type?.handler ?? '');
  const [strategy, setStrategy] = useState<SandboxStrategy>(type?.sandboxStrategy ?? NEW_TYPE_STRATEGY);
  const builtIn = type?.builtIn ?? false;
  const state = useSubmit(async () => {
    if (type) {
      await update({
        name: type.name,
        description,
        parentTypes: parents,
        ...(builtIn ? {} : { handler: handler.trim() || null, sandboxStrategy: strategy }),
      });
      toast(`Saved type ${type.name}.`);
    } else {
      await add({ name: name.trim(), description, parentTypes: parents, handler: handler.trim() || null, sandboxStrategy: strategy });
      toast(`Added type ${name.trim()}.`);
    }
  }, onClose, { label: type ? `Saving type ${type.name}` : `Adding type ${name.trim()}`, success: null });
  const errors = formErrors(state.error, FIELDS, 'name');

  const toggleParent = (parent: string, on: boolean) => setParents((current) => (on ? [...current, parent] : current.filter((p) => p !== parent)));
  const choices = parentChoices(types, type?.name ?? null);

  return (
    <FormDialog title={type ? `Edit type ${type.name}` : 'Add resource type'} submitLabel={type ? 'Save' : 'Add type'} busyLabel="Saving…" state={state} onClose={onClose}>
      <Field label="Name" hint={type ? undefined : 'Kebab-case, e.g. "docs-site".'} error={errors.at('name')}>
        <input className="input mono" value={name} onChange={(event) => setName(event.target.value)} disabled={type !== null} autoFocus={type === null} spellCheck={false} />
      </Field>
      <Field label="Description" optional error={errors.at('description')}>
        <input className="input" value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <div className="field" role="group" aria-labelledby="parent-types-label">
        <span className="field-label" id="parent-types-label">
          Parent types <span className="field-optional">(optional)</span>
        </span>
        <div className="check-list">
          {choices.length === 0 && <span className="check-item faint">No other types yet.</span>}
          {choices.map((choice) => (
            <label className="check-item" key={choice.name} title={choice.reason ?? undefined}>
              <input type="checkbox" checked={parents.includes(choice.name)} disabled={!choice.allowed} onChange={(event) => toggleParent(choice.name, event.target.checked)} />
              <span className="mono">{choice.name}</span>
              {choice.reason && <span className="check-item-note">{choice.reason}</span>}
            </label>
          ))}
        </div>
        <span className="field-hint">A resource of this type can fill slots that ask for any parent type (and the parents’ parents).</span>
        {errors.at('parentTypes') && <span className="field-error">{errors.at('parentTypes')}</span>}
      </div>
      <Field
        label="Handler"
        optional
        hint={builtIn ? 'Built-in types keep their built-in handler.' : 'A module in the data directory’s handlers folder and its export, "module:Export". Leave empty for the default handler.'}
        error={errors.at('handler')}
      >
        <input className="input mono" value={handler} placeholder="my-handler.js:MyHandler" onChange={(event) => setHandler(event.target.value)} disabled={builtIn} spellCheck={false} />
      </Field>
      {!builtIn && handler.trim() !== '' && (
        <div className="callout callout-warning" role="note">
          <Icon name="lock" />
          <span>
            A custom handler is trusted code: Bindery loads and runs it with your full permissions whenever a resource of this type is provisioned. Only use
            handlers you wrote or have reviewed.
          </span>
        </div>
      )}
      <StrategyField value={strategy} onChange={setStrategy} disabled={builtIn} error={errors.at('sandboxStrategy')} />
      <ErrorCallout error={errors.general} />
    </FormDialog>
  );
}
