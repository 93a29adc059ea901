/**
 * Registering a folder: pick it (native picker), drop it, or type its path; Bindery checks it,
 * suggests the type (git work-tree root or not) and proposes a name, and shows any refusal at
 * the field it concerns.
 */
import { useReducer, useState, type ReactElement } from 'react';
import type { SandboxStrategy } from '../../../../shared/model.ts';
import { resourcesAt, sameFolderWarning } from '../../../../shared/same-folder.ts';
import { host } from '../../api/index.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Field } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { Options } from '../../components/options.tsx';
import { Icon } from '../../components/icons.tsx';
import { useDebouncedTask } from '../../hooks/use-debounced-task.ts';
import { useSubmit } from '../../hooks/use-submit.ts';
import { formErrors } from '../../lib/errors.ts';
import { describeFolder, initialRegisterForm, registerReducer } from '../../lib/register-form.ts';
import { useResources } from '../../stores/resources-store.ts';
import { useTypes } from '../../stores/types-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { StrategySelect } from './strategy-select.tsx';

const FIELDS = ['location', 'name', 'typeName', 'sandboxStrategy', 'description'] as const;
const INSPECT_DELAY_MS = 250;

/** The register dialog, opened through the UI store. */
export function RegisterDialog({ initialLocation }: { initialLocation: string }): ReactElement {
  const { add, inspectFolder, items } = useResources();
  const types = useTypes((state) => state.items);
  const { closeRegister, toast, dropNote } = useUi();
  const [form, dispatch] = useReducer(registerReducer, initialLocation, initialRegisterForm);
  const [strategy, setStrategy] = useState<SandboxStrategy | ''>('');
  const location = form.location.trim();
  useDebouncedTask(
    location || null,
    () => inspectFolder(location),
    (inspection) => dispatch({ kind: 'inspected', inspection }),
    INSPECT_DELAY_MS,
  );

  const state = useSubmit(async () => {
    const resource = await add({
      name: form.name.trim(),
      typeName: form.typeName,
      location: form.location.trim(),
      sandboxStrategy: strategy || null,
      description: form.description,
    });
    toast(`Registered ${resource.name} as ${resource.typeName}.`);
  }, closeRegister, { label: `Registering ${form.name.trim() || form.location.trim()}`, success: null });
  const errors = formErrors(state.error, FIELDS, 'name');
  const verdict = describeFolder(form.inspection);
  // Said before saving, so a folder registered twice by mistake can be left alone.
  const sameFolder = form.inspection?.exists ? sameFolderWarning(resourcesAt(items, form.inspection.path).map((r) => r.name)) : null;

  const pick = async () => {
    const path = await host.pickFolder();
    if (path) dispatch({ kind: 'location', value: path });
  };

  return (
    <FormDialog
      title="Register folder"
      submitLabel="Register"
      busyLabel="Registering…"
      state={state}
      onClose={closeRegister}
      blocked={!form.location.trim()}
      note="Registering never changes the folder."
    >
      {dropNote && (
        <div className="callout" role="note">
          <Icon name="info" />
          <span>{dropNote}</span>
        </div>
      )}
      <Field
        label="Folder"
        error={errors.at('location')}
        hint={
          verdict ? (
            <span className="status" data-testid="folder-verdict">
              <span className="status-dot" data-tone={verdict.tone} />
              {verdict.text}
            </span>
          ) : host.canPickFolder ? (
            'Choose a folder, drop one on the window, or type its path.'
          ) : (
            'The absolute path of the folder on the machine running Bindery.'
          )
        }
      >
        <FolderInput value={form.location} onChange={(value) => dispatch({ kind: 'location', value })} onPick={host.canPickFolder ? () => void pick() : null} />
      </Field>
      {sameFolder && (
        <div className="callout callout-warning" role="note" data-testid="same-folder-warning">
          <Icon name="alert" />
          <span>{sameFolder}</span>
        </div>
      )}
      <div className="field-row">
        <Field label="Name" hint='"namespace/name"; slots match the part after the "/".' error={errors.at('name')}>
          <input className="input mono" value={form.name} placeholder="local/my-app" spellCheck={false} onChange={(event) => dispatch({ kind: 'name', value: event.target.value })} />
        </Field>
        <Field label="Type" error={errors.at('typeName')} hint={form.inspection && form.typeName === form.inspection.suggestedType ? 'Suggested for this folder.' : undefined}>
          <select className="select" value={form.typeName} onChange={(event) => dispatch({ kind: 'type', value: event.target.value })}>
            <Options values={types.map((type) => type.name)} />
          </select>
        </Field>
      </div>
      <StrategySelect value={strategy} onChange={setStrategy} typeDefault={types.find((t) => t.name === form.typeName)?.sandboxStrategy ?? null} error={errors.at('sandboxStrategy')} />
      <Field label="Description" optional error={errors.at('description')}>
        <input className="input" value={form.description} onChange={(event) => dispatch({ kind: 'description', value: event.target.value })} />
      </Field>
      <ErrorCallout error={errors.general} />
    </FormDialog>
  );
}

/** The path box, with the native picker beside it when the host has one. */
function FolderInput(props: { value: string; onChange: (value: string) => void; onPick: (() => void) | null; id?: string }): ReactElement {
  const { value, onChange, onPick, ...aria } = props;
  return (
    <div className="field-row" style={{ gap: 'var(--space-2)' }}>
      <input {...aria} className="input mono" value={value} placeholder="/home/me/src/my-app" spellCheck={false} autoFocus onChange={(event) => onChange(event.target.value)} style={{ flex: 1 }} />
      {onPick && (
        <button type="button" className="btn" onClick={onPick} style={{ flex: 'none' }}>
          Choose…
        </button>
      )}
    </div>
  );
}
