/** The projects screen: the list of projects beside the selected one's links. */
import { useState, type ReactElement } from 'react';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { MasterDetail } from '../../components/master-detail.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { plural } from '../../lib/labels.ts';
import { useProjects } from '../../stores/projects-store.ts';
import { ProjectDetail } from './project-detail.tsx';
import { ProjectDialog } from './project-dialog.tsx';

/** Lists projects; the detail pane shows the selection (the first one by default). */
export function ProjectsScreen(): ReactElement {
  const { items, status, error } = useProjects();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const selected = items.find((p) => p.id === selectedId) ?? items[0] ?? null;
  const newButton = (
    <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
      <Icon name="plus" /> New project
    </button>
  );

  return (
    <div className="page">
      <PageHeader title="Projects" subtitle="Groups of linked resources. A tool used in a project binds its contextual slots to the project’s links." actions={newButton} />
      {status === 'error' && <ErrorCallout error={error} onRetry={() => void useProjects.getState().refresh()} />}
      {items.length === 0 ? (
        <div className="grid grid-fill">
          <EmptyState icon="project" title={status === 'ready' ? 'No projects yet' : 'Loading projects…'} actions={status === 'ready' ? newButton : undefined}>
            {status === 'ready' && 'Create a project, then link the resources it works on. Aliases on the links decide which resource fills a slot when several fit.'}
          </EmptyState>
        </div>
      ) : (
        <MasterDetail
          label="Projects"
          items={items}
          selected={selected}
          onSelect={(project) => setSelectedId(project.id)}
          title={(project) => <span className="truncate">{project.name}</span>}
          meta={(project) => `${plural(project.links.length, 'linked resource')}`}
          detail={(project) => <ProjectDetail key={project.id} project={project} />}
        />
      )}
      {creating && <ProjectDialog project={null} onClose={() => setCreating(false)} onSaved={(project) => setSelectedId(project.id)} />}
    </div>
  );
}
