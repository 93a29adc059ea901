/** One project: its description and linked resources, with inline aliases, link and unlink. */
import { useState, type ReactElement } from 'react';
import type { ProjectDetail as Detail } from '../../../../shared/model.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Icon } from '../../components/icons.tsx';
import { PathText } from '../../components/path-text.tsx';
import { plural } from '../../lib/labels.ts';
import { useProjects } from '../../stores/projects-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { AliasEditor } from './alias-editor.tsx';
import { LinkDialog } from './link-dialog.tsx';
import { ProjectDialog } from './project-dialog.tsx';

type Link = Detail['links'][number];

/** The detail pane of the projects screen. */
export function ProjectDetail({ project }: { project: Detail }): ReactElement {
  const { link, unlink, remove } = useProjects();
  const toast = useUi((state) => state.toast);
  const [linking, setLinking] = useState(false);
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [unlinking, setUnlinking] = useState<Link | null>(null);

  return (
    <div className="detail" data-testid="project-detail">
      <div className="detail-header">
        <div style={{ minWidth: 0 }}>
          <h2 className="detail-title">{project.name}</h2>
          <p className="muted">{project.description || 'No description.'}</p>
        </div>
        <div className="page-actions">
          <button type="button" className="btn btn-sm" onClick={() => setEditing(true)}>
            <Icon name="edit" size={14} /> Edit
          </button>
          <button type="button" className="btn btn-sm" onClick={() => setRemoving(true)}>
            <Icon name="trash" size={14} /> Delete
          </button>
        </div>
      </div>
      <section className="detail-section" aria-labelledby="linked-title">
        <div className="section-title">
          <span id="linked-title">Linked resources ({project.links.length})</span>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => setLinking(true)}>
            <Icon name="link" size={14} /> Link resource
          </button>
        </div>
        {project.links.length === 0 ? (
          <div className="grid">
            <EmptyState
              icon="link"
              title="No linked resources"
              actions={
                <button type="button" className="btn btn-primary" onClick={() => setLinking(true)}>
                  <Icon name="link" /> Link resource
                </button>
              }
            >
              Link the folders this project works on. Tools used in this project bind their contextual slots to these.
            </EmptyState>
          </div>
        ) : (
          <table className="simple-table" aria-label="Linked resources">
            <colgroup>
              <col style={{ width: '30%' }} />
              <col style={{ width: '124px' }} />
              <col />
              <col style={{ width: '20%' }} />
              <col style={{ width: '52px' }} />
            </colgroup>
            <thead>
              <tr>
                <th>Resource</th>
                <th>Type</th>
                <th>Location</th>
                <th>Alias</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {project.links.map((l) => (
                <tr key={l.resourceId} data-resource={l.resource.name}>
                  <td className="mono" title={l.resource.name}>
                    {l.resource.name}
                  </td>
                  <td>
                    <span className="chip">{l.resource.typeName}</span>
                  </td>
                  <td>
                    <PathText path={l.resource.location} />
                  </td>
                  <td className="alias-cell">
                    <AliasEditor
                      alias={l.alias}
                      label={`Alias of ${l.resource.name}`}
                      onSave={async (alias) => {
                        await link(project.id, l.resourceId, alias);
                        toast(alias ? `Alias of ${l.resource.name} is now "${alias}".` : `Cleared the alias of ${l.resource.name}.`);
                      }}
                    />
                  </td>
                  <td className="actions">
                    <button type="button" className="btn btn-ghost btn-icon btn-sm" aria-label={`Unlink ${l.resource.name}`} onClick={() => setUnlinking(l)}>
                      <Icon name="unlink" />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {linking && <LinkDialog project={project} onClose={() => setLinking(false)} />}
      {editing && <ProjectDialog project={project} onClose={() => setEditing(false)} />}
      {unlinking && (
        <ConfirmDialog
          title={`Unlink ${unlinking.resource.name}?`}
          message={
            <>
              <code>{unlinking.resource.name}</code> stays registered, but tools used in <strong>{project.name}</strong> will no longer bind to it
              {unlinking.alias ? <> (its alias “{unlinking.alias}” goes too)</> : null}.
            </>
          }
          confirmLabel="Unlink"
          onConfirm={async () => {
            await unlink(project.id, unlinking.resourceId);
            toast(`Unlinked ${unlinking.resource.name} from ${project.name}.`);
          }}
          onClose={() => setUnlinking(null)}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={`Delete project ${project.name}?`}
          message="The project and its links are deleted. The linked resources stay registered and their folders are not touched."
          itemsLabel={project.links.length > 0 ? `${plural(project.links.length, 'link')} will go:` : undefined}
          items={project.links.map((l) => (l.alias ? `${l.resource.name} (alias ${l.alias})` : l.resource.name))}
          confirmLabel="Delete project"
          onConfirm={async () => {
            await remove(project.id);
            toast(`Deleted project ${project.name}.`);
          }}
          onClose={() => setRemoving(false)}
        />
      )}
    </div>
  );
}
