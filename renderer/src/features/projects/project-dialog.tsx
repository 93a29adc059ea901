/** Creating a project, or renaming and describing one. */
import { useState, type ReactElement } from 'react';
import type { Project } from '../../../../shared/model.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Field } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSubmit } from '../../hooks/use-submit.ts';
import { formErrors } from '../../lib/errors.ts';
import { useProjects } from '../../stores/projects-store.ts';
import { useUi } from '../../stores/ui-store.ts';

const FIELDS = ['name', 'description'] as const;

/** The dialog; `project` null creates one and reports it to `onSaved`. */
export function ProjectDialog({ project, onClose, onSaved }: { project: Project | null; onClose: () => void; onSaved?: (project: Project) => void }): ReactElement {
  const { add, update } = useProjects();
  const toast = useUi((state) => state.toast);
  const [name, setName] = useState(project?.name ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const state = useSubmit(async () => {
    const saved = project ? await update({ ref: project.id, name: name.trim(), description }) : await add({ name: name.trim(), description });
    toast(project ? `Saved project ${saved.name}.` : `Created project ${saved.name}.`);
    onSaved?.(saved);
  }, onClose, { label: project ? `Saving project ${project.name}` : `Creating project ${name.trim()}`, success: null });
  const errors = formErrors(state.error, FIELDS, 'name');

  return (
    <FormDialog title={project ? `Edit project ${project.name}` : 'New project'} submitLabel={project ? 'Save' : 'Create project'} busyLabel="Saving…" state={state} onClose={onClose}>
      <Field label="Name" hint='Letters, digits, ".", "_" and "-", e.g. "billing-service".' error={errors.at('name')}>
        <input className="input" value={name} autoFocus spellCheck={false} onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label="Description" optional error={errors.at('description')}>
        <input className="input" value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <ErrorCallout error={errors.general} />
    </FormDialog>
  );
}
