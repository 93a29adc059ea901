/**
 * Importing tools: paste YAML, choose a file or drop one on the dialog. The text is checked as
 * you type (without registering anything) and every problem is shown beside its line.
 */
import { useId, useState, type DragEvent, type ReactElement } from 'react';
import type { ToolFileIssue, ToolValidation } from '../../../../shared/dto.ts';
import { BinderyError } from '../../../../shared/errors.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { Icon } from '../../components/icons.tsx';
import { useDebouncedTask } from '../../hooks/use-debounced-task.ts';
import { useSubmit } from '../../hooks/use-submit.ts';
import { plural } from '../../lib/labels.ts';
import { appIssue, takenToolName } from '../../lib/taken-name.ts';
import { isToolFileName } from '../../lib/tool-files.ts';
import { issuesFromDetails } from '../../lib/yaml-lines.ts';
import { useTools } from '../../stores/tools-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { AnnotatedYaml } from './annotated-yaml.tsx';

const VALIDATE_DELAY_MS = 300;

/** The import dialog, opened through the UI store with optional initial text. */
export function ImportDialog({ initial }: { initial: { text: string; fileName: string } }): ReactElement {
  const { validate, importTools } = useTools();
  const { closeToolImport, toast } = useUi();
  const [text, setText] = useState(initial.text);
  const [fileName, setFileName] = useState(initial.fileName);
  const [replace, setReplace] = useState(false);
  const [checked, setChecked] = useState<{ key: string; result: ToolValidation } | null>(null);
  const [importIssues, setImportIssues] = useState<ToolFileIssue[]>([]);
  const [over, setOver] = useState(false);
  const fileInputId = useId();
  const textId = useId();

  const source = { text, fileName: fileName || 'tool.yaml', replace };
  const key = JSON.stringify(source);
  useDebouncedTask(
    text.trim() ? key : null,
    async () => ({ key, result: await validate(source) }),
    setChecked,
    VALIDATE_DELAY_MS,
  );
  // While the text changes, the last problems stay on screen (no jumping layout), but only a
  // check of exactly this text may say "Ready".
  const check = checked?.result ?? null;
  const fresh = checked?.key === key;

  const state = useSubmit(async () => {
    setImportIssues([]);
    try {
      const tools = await importTools(source);
      toast(`Imported ${tools.map((t) => `${t.name} (${plural(t.resourceSlots.length, 'slot')})`).join(', ')}.`);
    } catch (caught) {
      // Problems located in the file show beside their lines; anything else in a callout.
      const issues = caught instanceof BinderyError ? issuesFromDetails(caught.details) : [];
      setImportIssues(issues);
      throw caught;
    }
  }, closeToolImport, { label: `Importing ${initial.fileName}`, success: null });

  const load = async (file: File) => {
    setText(await file.text());
    setFileName(file.name);
    setImportIssues([]);
    state.setError(null);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) void load(file);
  };

  const shownText = text.trim() ? text : '';
  const issues = (importIssues.length > 0 ? importIssues : shownText && check && !check.ok ? check.issues : []).map(appIssue);
  const ready = shownText !== '' && fresh && check?.ok === true;

  return (
    <FormDialog
      title="Import tools"
      wide
      submitLabel="Import"
      busyLabel="Importing…"
      state={state}
      onClose={closeToolImport}
      blocked={!shownText}
      note={
        <span data-testid="import-summary">
          {!shownText
            ? 'Paste YAML or JSON, choose a file, or drop one here.'
            : issues.length > 0
              ? `${plural(issues.length, 'problem')} to fix before importing.`
              : ready
                ? `Ready: ${check.tools.map((t) => `${t.name} (${plural(t.resourceSlots.length, 'slot')})`).join(', ')}.`
                : 'Checking…'}
        </span>
      }
    >
      <div
        className={over ? 'import-drop over' : 'import-drop'}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <div className="field-row import-source">
          <div className="field">
            <label className="field-label" htmlFor={`${fileInputId}-name`}>
              File name
            </label>
            <input
              id={`${fileInputId}-name`}
              className="input mono"
              value={fileName}
              spellCheck={false}
              onChange={(event) => setFileName(event.target.value)}
              aria-describedby={`${fileInputId}-name-hint`}
            />
            <span className="field-hint" id={`${fileInputId}-name-hint`}>
              A one-tool file without <code>name:</code> takes this name (without the extension).
            </span>
          </div>
          <div className="field import-file">
            <span className="field-label">From a file</span>
            <input
              id={fileInputId}
              className="visually-hidden"
              type="file"
              accept=".yaml,.yml,.json,application/json,text/yaml"
              data-testid="tool-file-input"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file && isToolFileName(file.name)) void load(file);
                else if (file) state.setError(new Error(`${file.name} is not a tool file: choose a .yaml, .yml or .json file.`));
                event.target.value = '';
              }}
            />
            <label className="btn" htmlFor={fileInputId}>
              <Icon name="upload" /> Choose file…
            </label>
          </div>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={textId}>
            Tool definition (YAML or JSON)
          </label>
          <textarea
            id={textId}
            className="textarea"
            rows={issues.length > 0 ? 7 : 14}
            value={text}
            spellCheck={false}
            placeholder={'name: my-tool\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write'}
            onChange={(event) => {
              setText(event.target.value);
              setImportIssues([]);
            }}
          />
        </div>
      </div>
      {issues.length > 0 && (
        <AnnotatedYaml
          text={text}
          issues={issues}
          label="Problems in the tool file"
          action={(issue) => {
            const name = takenToolName(issue);
            if (name === null) return null;
            return (
              <span className="yaml-issue-action">
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => {
                    setReplace(true);
                    setImportIssues([]);
                    state.setError(null);
                  }}
                >
                  Replace
                </button>
                <span className="field-hint">Importing then updates the registered “{name}”.</span>
              </span>
            );
          }}
        />
      )}
      <label className="check-item" style={{ padding: 0 }}>
        <input type="checkbox" checked={replace} onChange={(event) => setReplace(event.target.checked)} />
        <span>Replace tools that are already registered under the same name</span>
      </label>
      <ErrorCallout error={importIssues.length > 0 ? null : state.error} />
    </FormDialog>
  );
}
