/** Editing a registered resource: name, type, location (checked again), strategy, description. */
import { useState, type ReactElement } from 'react';
import type { ResourceListItem } from '../../../../shared/dto.ts';
import type { SandboxStrategy } from '../../../../shared/model.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Field } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { Options } from '../../components/options.tsx';
import { useSubmit } from '../../hooks/use-submit.ts';
import { formErrors } from '../../lib/errors.ts';
import { useResources } from '../../stores/resources-store.ts';
import { useTypes } from '../../stores/types-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { StrategySelect } from './strategy-select.tsx';

const FIELDS = ['location', 'name', 'typeName', 'sandboxStrategy', 'description'] as const;

/** The edit dialog for one resource. */
export function EditResourceDialog({ resource, onClose }: { resource: ResourceListItem; onClose: () => void }): ReactElement {
  const update = useResources((state) => state.update);
  const types = useTypes((state) => state.items);
  const toast = useUi((state) => state.toast);
  const [name, setName] = useState(resource.name);
  const [typeName, setTypeName] = useState(resource.typeName);
  const [location, setLocation] = useState(resource.location);
  const [strategy, setStrategy] = useState<SandboxStrategy | ''>(resource.sandboxStrategy ?? '');
  const [description, setDescription] = useState(resource.description);
  const state = useSubmit(async () => {
    const saved = await update({
      ref: resource.id,
      ...(name.trim() !== resource.name ? { name: name.trim() } : {}),
      ...(typeName !== resource.typeName ? { typeName } : {}),
      ...(location.trim() !== resource.location ? { location: location.trim() } : {}),
      sandboxStrategy: strategy || null,
      description,
    });
    toast(`Saved ${saved.name}.`);
  }, onClose, { label: `Saving ${resource.name}`, success: null });
  const errors = formErrors(state.error, FIELDS, 'name');

  return (
    <FormDialog title={`Edit ${resource.name}`} submitLabel="Save" busyLabel="Saving…" state={state} onClose={onClose}>
      <Field label="Folder" error={errors.at('location')} hint="A new folder is checked like a new registration.">
        <input className="input mono" value={location} spellCheck={false} onChange={(event) => setLocation(event.target.value)} />
      </Field>
      <div className="field-row">
        <Field label="Name" error={errors.at('name')}>
          <input className="input mono" value={name} spellCheck={false} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label="Type" error={errors.at('typeName')}>
          <select className="select" value={typeName} onChange={(event) => setTypeName(event.target.value)}>
            <Options values={types.map((type) => type.name)} />
          </select>
        </Field>
      </div>
      <StrategySelect value={strategy} onChange={setStrategy} typeDefault={types.find((t) => t.name === typeName)?.sandboxStrategy ?? null} error={errors.at('sandboxStrategy')} />
      <Field label="Description" optional error={errors.at('description')}>
        <input className="input" value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <ErrorCallout error={errors.general} />
    </FormDialog>
  );
}
