/** One tool: description, run command, slots, its file, export (download or copy) and removal. */
import { useEffect, useState, type ReactElement } from 'react';
import type { ToolExport } from '../../../../shared/dto.ts';
import type { Tool } from '../../../../shared/model.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { useTools } from '../../stores/tools-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { AnnotatedYaml } from './annotated-yaml.tsx';
import { SlotsTable } from './slots-table.tsx';

/** The detail pane of the tools screen. */
export function ToolDetail({ tool }: { tool: Tool }): ReactElement {
  const { exportTool, remove } = useTools();
  const toast = useUi((state) => state.toast);
  const [file, setFile] = useState<ToolExport | null>(null);
  const [fileError, setFileError] = useState<unknown>(null);
  const [removing, setRemoving] = useState(false);

  useEffect(() => {
    let current = true;
    exportTool(tool.id).then(
      (exported) => current && setFile(exported),
      (error: unknown) => current && setFileError(error),
    );
    return () => {
      current = false;
    };
  }, [tool, exportTool]);

  const download = () => {
    if (!file) return;
    const url = URL.createObjectURL(new Blob([file.text], { type: 'text/yaml' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = file.fileName;
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  const copy = async () => {
    if (!file) return;
    try {
      await navigator.clipboard.writeText(file.text);
      toast(`Copied ${tool.name} as YAML.`);
    } catch {
      toast('The clipboard refused the copy: use Download instead.', 'error');
    }
  };

  return (
    <div className="detail" data-testid="tool-detail">
      <div className="detail-header">
        <div style={{ minWidth: 0 }}>
          <h2 className="detail-title">{tool.name}</h2>
          <p className="muted">{tool.description || 'No description.'}</p>
        </div>
        <div className="page-actions">
          <button type="button" className="btn btn-sm" onClick={download} disabled={!file}>
            <Icon name="download" size={14} /> Download
          </button>
          <button type="button" className="btn btn-sm" onClick={() => void copy()} disabled={!file}>
            <Icon name="copy" size={14} /> Copy YAML
          </button>
          <button type="button" className="btn btn-sm" onClick={() => setRemoving(true)}>
            <Icon name="trash" size={14} /> Remove
          </button>
        </div>
      </div>
      {tool.run && (
        <dl className="props">
          <dt>Runs</dt>
          <dd>
            <code>{tool.run}</code>
          </dd>
        </dl>
      )}
      <section className="detail-section">
        <div className="section-title">Resource slots ({tool.resourceSlots.length})</div>
        <SlotsTable slots={tool.resourceSlots} />
      </section>
      <section className="detail-section">
        <div className="section-title">Definition{file ? <span className="mono faint">{file.fileName}</span> : null}</div>
        {file && <AnnotatedYaml text={file.text} issues={[]} label={`${tool.name} as YAML`} />}
        <ErrorCallout error={fileError} />
      </section>
      {removing && (
        <ConfirmDialog
          title={`Remove tool ${tool.name}?`}
          message="The tool is unregistered. Download it first if you may want it back; its resources are not touched."
          confirmLabel="Remove tool"
          onConfirm={async () => {
            await remove(tool.id);
            toast(`Removed tool ${tool.name}.`);
          }}
          onClose={() => setRemoving(false)}
        />
      )}
    </div>
  );
}
