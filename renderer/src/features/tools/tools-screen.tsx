/** The tools screen: the list of tools beside the selected one's slots and file. */
import { useState, type ReactElement } from 'react';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { MasterDetail } from '../../components/master-detail.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useTools } from '../../stores/tools-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { ImportDialog } from './import-dialog.tsx';
import { ToolDetail } from './tool-detail.tsx';

/** Lists tools; the detail pane shows the selection (the first one by default). */
export function ToolsScreen(): ReactElement {
  const { items, status, error } = useTools();
  const toolImport = useUi((state) => state.toolImport);
  const openToolImport = useUi((state) => state.openToolImport);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = items.find((t) => t.id === selectedId) ?? items[0] ?? null;
  const importButton = (
    <button type="button" className="btn btn-primary" onClick={() => openToolImport()}>
      <Icon name="upload" /> Import tools
    </button>
  );

  return (
    <div className="page">
      <PageHeader title="Tools" subtitle="Tool definitions and their resource slots: what each needs, with what access, and how it finds it." actions={importButton} />
      {status === 'error' && <ErrorCallout error={error} onRetry={() => void useTools.getState().refresh()} />}
      {items.length === 0 ? (
        <div className="grid grid-fill">
          <EmptyState icon="tool" title={status === 'ready' ? 'No tools yet' : 'Loading tools…'} actions={status === 'ready' ? importButton : undefined}>
            {status === 'ready' && 'Import a tool definition (YAML or JSON with resource_slots): paste it, choose a file, or drop one on this window.'}
          </EmptyState>
        </div>
      ) : (
        <MasterDetail
          label="Tools"
          items={items}
          selected={selected}
          onSelect={(tool) => setSelectedId(tool.id)}
          title={(tool) => (
            <>
              <span className="truncate">{tool.name}</span>
              {tool.run && <span className="badge">runs</span>}
            </>
          )}
          meta={(tool) => (tool.resourceSlots.length === 0 ? 'no slots' : tool.resourceSlots.map((s) => s.name).join(', '))}
          detail={(tool) => <ToolDetail key={tool.id} tool={tool} />}
        />
      )}
      {toolImport && <ImportDialog initial={toolImport} />}
    </div>
  );
}
