/**
 * The app shell: the connection bar, brand, header, navigation, the current screen, drops and
 * toasts. While the host does not answer, the screen's controls are disabled in one place: a
 * disabled fieldset around it blocks clicks and keys on every button and field (issue 22).
 */
import { useEffect, type ReactElement } from 'react';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { Icon } from '../components/icons.tsx';
import { Toasts } from '../components/toasts.tsx';
import { ActivityScreen } from '../features/activity/activity-screen.tsx';
import { InspectorScreen } from '../features/inspector/inspector-screen.tsx';
import { PlansScreen } from '../features/plans/plans-screen.tsx';
import { ProjectsScreen } from '../features/projects/projects-screen.tsx';
import { ResourcesScreen } from '../features/resources/resources-screen.tsx';
import { ToolsScreen } from '../features/tools/tools-screen.tsx';
import { TypesScreen } from '../features/types/types-screen.tsx';
import { startConnectionWatch, useConnection } from '../stores/connection-store.ts';
import { startSync } from '../stores/sync.ts';
import { routeFromHash, useUi, type Route } from '../stores/ui-store.ts';
import { ConnectionBar, useFocusAcrossOutage } from './connection-bar.tsx';
import { DropZone } from './drop-zone.tsx';
import { Header } from './header.tsx';
import { Nav } from './nav.tsx';

const SCREENS: Record<Route, () => ReactElement> = {
  resources: ResourcesScreen,
  projects: ProjectsScreen,
  tools: ToolsScreen,
  types: TypesScreen,
  inspector: InspectorScreen,
  plans: PlansScreen,
  activity: ActivityScreen,
};

/** The whole window. */
export function App(): ReactElement {
  const route = useUi((state) => state.route);
  const connected = useConnection((state) => state.connected);
  useEffect(() => startConnectionWatch(), []);
  useEffect(() => startSync(), []);
  useFocusAcrossOutage();
  useEffect(() => {
    const onHash = () => useUi.setState({ route: routeFromHash(window.location.hash) });
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const Screen = SCREENS[route];
  return (
    <div className="shell" data-offline={connected ? undefined : ''}>
      <ConnectionBar />
      <div className="brand">
        <span className="brand-mark">
          <Icon name="box" size={14} />
        </span>
        Bindery
      </div>
      <Header />
      <Nav />
      <main className="content" id="content">
        <fieldset className="content-actions" disabled={!connected}>
          <ErrorBoundary resetKey={route}>
            <Screen key={route} />
          </ErrorBoundary>
        </fieldset>
      </main>
      <DropZone />
      <Toasts />
    </div>
  );
}
