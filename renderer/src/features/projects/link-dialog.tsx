/** Linking a resource to a project: a filterable picker of resources not linked yet, and an alias. */
import { useMemo, useState, type ReactElement } from 'react';
import type { ProjectDetail } from '../../../../shared/model.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Field } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSubmit } from '../../hooks/use-submit.ts';
import { Icon } from '../../components/icons.tsx';
import { PathText } from '../../components/path-text.tsx';
import { formErrors } from '../../lib/errors.ts';
import { filterResources } from '../../lib/resource-filter.ts';
import { useProjects } from '../../stores/projects-store.ts';
import { useResources } from '../../stores/resources-store.ts';
import { useUi } from '../../stores/ui-store.ts';

const MAX_SHOWN = 200;

/** The link dialog for one project. */
export function LinkDialog({ project, onClose }: { project: ProjectDetail; onClose: () => void }): ReactElement {
  const resources = useResources((state) => state.items);
  const link = useProjects((state) => state.link);
  const toast = useUi((state) => state.toast);
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [alias, setAlias] = useState('');
  const linked = useMemo(() => new Set(project.links.map((l) => l.resourceId)), [project]);
  const available = useMemo(() => resources.filter((r) => !linked.has(r.id)), [resources, linked]);
  const shown = useMemo(() => filterResources(available, { text, typeName: '' }).slice(0, MAX_SHOWN), [available, text]);
  const state = useSubmit(async () => {
    if (!chosen) throw new Error('Choose a resource to link first.');
    await link(project.id, chosen, alias.trim() || null);
    toast(`Linked ${resources.find((r) => r.id === chosen)?.name ?? 'resource'} to ${project.name}.`);
  }, onClose, { label: `Linking a resource to ${project.name}`, success: null });
  // A duplicate alias comes back as a conflict without a field: it is still about the alias.
  const errors = formErrors(state.error, ['alias'] as const, 'alias');

  return (
    <FormDialog title={`Link a resource to ${project.name}`} submitLabel="Link" busyLabel="Linking…" state={state} onClose={onClose} blocked={!chosen}>
      {available.length === 0 ? (
        <div className="callout" role="note">
          <Icon name="info" />
          <span>Every registered resource is already linked to this project. Register another folder on the Resources screen first.</span>
        </div>
      ) : (
        <div className="field">
          <label className="field-label" htmlFor="link-filter">
            Resource
          </label>
          <input id="link-filter" className="input" type="search" placeholder="Filter resources…" value={text} autoFocus onChange={(event) => setText(event.target.value)} />
          <div className="check-list picker-list" role="listbox" aria-label="Resources">
            {shown.map((resource) => (
              <div
                key={resource.id}
                role="option"
                tabIndex={0}
                aria-selected={resource.id === chosen}
                className="check-item picker-item"
                onClick={() => setChosen(resource.id)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    setChosen(resource.id);
                  }
                }}
              >
                <span className="mono">{resource.name}</span>
                <span className="chip">{resource.typeName}</span>
                <span className="check-item-note">
                  <PathText path={resource.location} />
                </span>
              </div>
            ))}
            {shown.length === 0 && <div className="check-item faint">No resource matches “{text}”.</div>}
            {shown.length === MAX_SHOWN && <div className="check-item faint">Showing the first {MAX_SHOWN}: type to narrow the list.</div>}
          </div>
        </div>
      )}
      <Field
        label="Alias"
        optional
        hint="When several linked resources fit a slot, the one whose alias equals the slot name is bound."
        error={errors.at('alias')}
      >
        <input className="input mono" value={alias} placeholder="e.g. repo" spellCheck={false} onChange={(event) => setAlias(event.target.value)} />
      </Field>
      <ErrorCallout error={errors.general} />
    </FormDialog>
  );
}
