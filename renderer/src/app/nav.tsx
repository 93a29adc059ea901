/**
 * The left navigation: the registry screens, with counts, and a place for the plan screens a
 * later issue adds (shown as coming, not hidden, so the layout does not jump).
 */
import type { ReactElement } from 'react';
import { Icon, type IconName } from '../components/icons.tsx';
import { useProjects } from '../stores/projects-store.ts';
import { useResources } from '../stores/resources-store.ts';
import { useTools } from '../stores/tools-store.ts';
import { useTypes } from '../stores/types-store.ts';
import { useUi, type Route } from '../stores/ui-store.ts';

interface NavEntry {
  route: Route;
  label: string;
  icon: IconName;
  count: number | null;
}

/** The navigation column. */
export function Nav(): ReactElement {
  const route = useUi((state) => state.route);
  const navigate = useUi((state) => state.navigate);
  const resources = useResources((state) => (state.status === 'idle' ? null : state.items.length));
  const projects = useProjects((state) => (state.status === 'idle' ? null : state.items.length));
  const tools = useTools((state) => (state.status === 'idle' ? null : state.items.length));
  const types = useTypes((state) => (state.status === 'idle' ? null : state.items.length));
  const registry: NavEntry[] = [
    { route: 'resources', label: 'Resources', icon: 'folder', count: resources },
    { route: 'projects', label: 'Projects', icon: 'project', count: projects },
    { route: 'tools', label: 'Tools', icon: 'tool', count: tools },
    { route: 'types', label: 'Resource types', icon: 'layers', count: types },
  ];
  return (
    <nav className="nav" aria-label="Main">
      <div className="nav-section">Registry</div>
      {registry.map((entry) => (
        <a
          key={entry.route}
          className="nav-link"
          href={`#/${entry.route}`}
          aria-current={route === entry.route ? 'page' : undefined}
          onClick={(event) => {
            event.preventDefault();
            navigate(entry.route);
          }}
        >
          <Icon name={entry.icon} />
          <span>{entry.label}</span>
          {entry.count !== null && <span className="nav-count">{entry.count.toLocaleString()}</span>}
        </a>
      ))}
      <div className="nav-section">Work</div>
      <span className="nav-link" aria-disabled="true" title="Plans arrive in a later version">
        <Icon name="plan" />
        <span>Plans</span>
        <span className="nav-count">soon</span>
      </span>
      <span className="nav-link" aria-disabled="true" title="Activity arrives in a later version">
        <Icon name="activity" />
        <span>Activity</span>
        <span className="nav-count">soon</span>
      </span>
    </nav>
  );
}
