/**
 * The left navigation: the registry screens with counts, then the work screens (binding
 * inspector, plans with the number awaiting review, activity).
 */
import { useEffect, type ReactElement } from 'react';
import { Icon, type IconName } from '../components/icons.tsx';
import { usePlans } from '../stores/plans-store.ts';
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
  // Plans that still wait for a decision (ready or partly committed).
  const openPlans = usePlans((state) =>
    state.status === 'idle'
      ? null
      : state.items.filter((p) => p.status === 'ready' || p.status === 'partially_committed').length,
  );
  const registry: NavEntry[] = [
    { route: 'resources', label: 'Resources', icon: 'folder', count: resources },
    { route: 'projects', label: 'Projects', icon: 'project', count: projects },
    { route: 'tools', label: 'Tools', icon: 'tool', count: tools },
    { route: 'types', label: 'Resource types', icon: 'layers', count: types },
  ];
  useEffect(() => void usePlans.getState().refresh(), []);
  const work: NavEntry[] = [
    { route: 'inspector', label: 'Binding inspector', icon: 'link', count: null },
    { route: 'plans', label: 'Plans', icon: 'plan', count: openPlans || null },
    { route: 'activity', label: 'Activity', icon: 'activity', count: null },
  ];
  return (
    <nav className="nav" aria-label="Main">
      <div className="nav-section">Registry</div>
      {registry.map((entry) => (
        <NavLink key={entry.route} entry={entry} current={route === entry.route} onOpen={navigate} />
      ))}
      <div className="nav-section">Work</div>
      {work.map((entry) => (
        <NavLink key={entry.route} entry={entry} current={route === entry.route} onOpen={navigate} />
      ))}
    </nav>
  );
}

function NavLink({
  entry,
  current,
  onOpen,
}: {
  entry: NavEntry;
  current: boolean;
  onOpen(route: Route): void;
}): ReactElement {
  return (
    <a
      className="nav-link"
      href={`#/${entry.route}`}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        event.preventDefault();
        onOpen(entry.route);
      }}
    >
      <Icon name={entry.icon} />
      <span>{entry.label}</span>
      {entry.count !== null && <span className="nav-count">{entry.count.toLocaleString()}</span>}
    </a>
  );
}
