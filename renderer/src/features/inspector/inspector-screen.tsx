/**
 * The binding inspector: choose a tool and a project and see how each slot binds, with every
 * candidate and the rule that decided; fix errors in place; then provision the plan. The choice
 * lives in the hash (`#/inspector?tool=..&project=..`), so links from other screens open it.
 */
import { useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import type { ResourceListItem } from '../../../../shared/dto.ts';
import type { BindingResult } from '../../../../shared/model.ts';
import { api } from '../../api/index.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { usePlans } from '../../stores/plans-store.ts';
import { useProjects } from '../../stores/projects-store.ts';
import { useResources } from '../../stores/resources-store.ts';
import { useTools } from '../../stores/tools-store.ts';
import { useTypes } from '../../stores/types-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { goTo } from '../plans/plan-route.ts';
import { bindingFixes, parameterChoices, type BindingFix } from './binding-fixes.ts';
import { EditResourceDialog } from '../resources/edit-resource-dialog.tsx';
import { useMissingBound } from './missing-bound.ts';
import { SlotCard } from './slot-card.tsx';
import './inspector.css';

/** The tool and project named in the hash query, if any. */
export function inspectorSelection(hash: string): { tool: string; project: string } {
  const query = new URLSearchParams(hash.split('?')[1] ?? '');
  return { tool: query.get('tool') ?? '', project: query.get('project') ?? '' };
}

/** The hash that opens the inspector on a tool and project. */
export function inspectorHash(tool: string, project: string): string {
  const query = new URLSearchParams();
  if (tool) query.set('tool', tool);
  if (project) query.set('project', project);
  const text = query.toString();
  return text ? `#/inspector?${text}` : '#/inspector';
}

/** The inspector screen. */
export function InspectorScreen(): ReactElement {
  const tools = useTools((s) => s.items);
  const projects = useProjects((s) => s.items);
  const resources = useResources((s) => s.items);
  const types = useTypes((s) => s.items);
  const link = useProjects((s) => s.link);
  const createPlan = usePlans((s) => s.create);
  const toast = useUi((s) => s.toast);
  const initial = useMemo(() => inspectorSelection(window.location.hash), []);
  const [toolName, setToolName] = useState(initial.tool);
  const [projectName, setProjectName] = useState(initial.project);
  const [params, setParams] = useState<Record<string, string>>({});
  const [results, setResults] = useState<BindingResult[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [provisioning, setProvisioning] = useState(false);
  const [provisionError, setProvisionError] = useState<unknown>(null);

  const tool = tools.find((t) => t.name === toolName) ?? tools[0] ?? null;
  const project = projects.find((p) => p.name === projectName) ?? projects[0] ?? null;

  useEffect(() => {
    if (!tool || !project) return;
    window.history.replaceState(window.history.state, '', inspectorHash(tool.name, project.name));
  }, [tool, project]);

  const inspect = useCallback(async () => {
    if (!tool || !project) return;
    const chosen = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ''));
    try {
      setResults(await api.inspectBindings({ tool: tool.id, project: project.id, params: chosen }));
      setError(null);
    } catch (caught) {
      setError(caught);
    }
    // Registry lists are dependencies so a link or alias change made anywhere re-inspects.
  }, [tool, project, params, resources]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    void inspect();
  }, [inspect]);

  const byId = useMemo(() => new Map(resources.map((r) => [r.id, r.name])), [resources]);
  const missing = useMissingBound(results, resources);
  const [fixing, setFixing] = useState<ResourceListItem | null>(null);
  const blocking = (results ?? []).filter((r) => r.error || r.deferred);
  const bound = (results ?? []).filter((r) => r.resourceId).length;

  const applyFix = async (fix: BindingFix, resourceName?: string) => {
    if (!project) return;
    if (fix.kind === 'alias') {
      await link(project.name, fix.resourceName, fix.alias);
      toast(`Set alias "${fix.alias}" on ${fix.resourceName} in ${project.name}.`);
    } else if (resourceName) {
      await link(project.name, resourceName, null);
      toast(`Linked ${resourceName} to ${project.name}.`);
    }
  };

  const provision = async () => {
    if (!tool || !project) return;
    setProvisioning(true);
    setProvisionError(null);
    try {
      const planId = await createPlan(
        tool.name,
        project.name,
        Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '')),
        // The label below promises it: a tool with a run command runs once its sandboxes are made.
        Boolean(tool.run),
      );
      goTo({ kind: 'plan', planId });
    } catch (caught) {
      setProvisionError(caught);
      setProvisioning(false);
    }
  };

  const provisionButton = (
    <button
      type="button"
      className="btn btn-primary"
      disabled={!results || blocking.length > 0 || missing.length > 0 || provisioning}
      title={
        blocking.length > 0
          ? `Fix ${blocking.map((r) => r.slotName).join(', ')} first`
          : missing.length > 0
            ? `Fix the location of ${missing.map((r) => r.name).join(', ')} first: its folder is missing`
            : tool?.run
              ? "Create the plan, provision a sandbox for every bound slot, then run the tool's command"
              : 'Create the plan and provision a sandbox for every bound slot'
      }
      onClick={() => void provision()}
    >
      <Icon name="box" /> {provisioning ? 'Starting…' : tool?.run ? 'Provision and run' : 'Provision plan'}
    </button>
  );

  if (tools.length === 0 || projects.length === 0) {
    return (
      <div className="page">
        <PageHeader title="Binding inspector" subtitle="How each slot of a tool binds in a project." />
        <div className="grid grid-fill">
          <EmptyState icon="tool" title={tools.length === 0 ? 'No tools yet' : 'No projects yet'}>
            {tools.length === 0
              ? 'Import a tool on the Tools screen, then come back to see how it binds.'
              : 'Create a project and link resources to it on the Projects screen.'}
          </EmptyState>
        </div>
      </div>
    );
  }

  return (
    <div className="page">
      <PageHeader
        title="Binding inspector"
        subtitle="How each slot of a tool binds in a project: the candidates, why each fits or not, and the rule that decided."
        actions={provisionButton}
      />
      <div className="inspector-bar">
        <label className="inspector-pick">
          <span>Tool</span>
          <select
            className="select"
            aria-label="Tool"
            value={tool?.name ?? ''}
            onChange={(event) => setToolName(event.target.value)}
          >
            {tools.map((t) => (
              <option key={t.id} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label className="inspector-pick">
          <span>Project</span>
          <select
            className="select"
            aria-label="Project"
            value={project?.name ?? ''}
            onChange={(event) => setProjectName(event.target.value)}
          >
            {projects.map((p) => (
              <option key={p.id} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        {results && (
          <span className="inspector-tally" aria-live="polite">
            {results.length} slot{results.length === 1 ? '' : 's'} · {bound} bound
            {blocking.length > 0 && <span className="is-error"> · {blocking.length} to fix</span>}
          </span>
        )}
      </div>
      {tool?.run && (
        <div className="inspector-run">
          <span className="field-label">Runs after provisioning</span>
          <code className="mono">{tool.run}</code>
        </div>
      )}
      <ErrorCallout error={error ?? provisionError} />
      <div className="inspector-slots">
        {results?.length === 0 && (
          <p className="muted">This tool declares no resource slots: its plan has nothing to provision.</p>
        )}
        {results?.map((result) => (
          <SlotCard
            key={result.slotName}
            result={result}
            boundName={result.resourceId ? (byId.get(result.resourceId) ?? result.resourceId) : null}
            fixes={project ? bindingFixes(result, project.name, resources, types) : []}
            choices={
              result.bindingMode === 'parameter'
                ? parameterChoices(
                    tool?.resourceSlots.find((s) => s.name === result.slotName)?.resourceType ??
                      result.resourceType,
                    resources,
                    types,
                  )
                : null
            }
            missing={missing.find((r) => r.id === result.resourceId) ?? null}
            onFixLocation={setFixing}
            param={params[result.slotName] ?? ''}
            onParam={(value) => setParams({ ...params, [result.slotName]: value })}
            onFix={applyFix}
          />
        ))}
      </div>
      {fixing && <EditResourceDialog resource={fixing} onClose={() => setFixing(null)} />}
    </div>
  );
}
