/**
 * Drops anywhere on the window: a folder opens the register dialog with its path, a YAML or
 * JSON file opens the tool import with its text. Browsers do not reveal a dropped folder's path,
 * so there the dialog opens with the folder's name and asks for the full path.
 */
import { useEffect, useState, type ReactElement } from 'react';
import { host } from '../api/index.ts';
import { isToolFileName } from '../lib/tool-files.ts';
import { useUi } from '../stores/ui-store.ts';

/** Listens for drags on the window and shows a hint while one is over it. */
export function DropZone(): ReactElement | null {
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    let depth = 0;
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const onEnter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth++;
      setDragging(true);
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onOver = (event: DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (!carriesFiles(event) || !event.dataTransfer) return;
      event.preventDefault();
      // Dialogs handle their own drops (the import dialog reads files itself).
      if (document.querySelector('dialog[open]')) return;
      void handleDrop(event.dataTransfer);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);

  if (!dragging) return null;
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-overlay-card">
        {host.canDropFolders
          ? 'Drop a folder to register it, or a tool file (.yaml, .json) to import it'
          : 'Drop a tool file (.yaml, .json) to import it, or a folder to register it by path'}
      </div>
    </div>
  );
}

async function handleDrop(transfer: DataTransfer): Promise<void> {
  const ui = useUi.getState();
  const item = transfer.items[0];
  const file = transfer.files[0];
  if (!file) return;
  const isFolder = item?.webkitGetAsEntry?.()?.isDirectory ?? false;
  if (!isFolder && isToolFileName(file.name)) {
    ui.openToolImport({ text: await file.text(), fileName: file.name });
    return;
  }
  if (!isFolder) {
    ui.toast(`${file.name} is neither a folder nor a tool file (.yaml, .yml, .json). Drop a folder to register it.`, 'error');
    return;
  }
  const path = host.pathForFile(file);
  ui.openRegister(path ?? '');
  if (!path) ui.setDropNote(`You dropped the folder "${file.name}". The browser does not tell Bindery where it is: type or paste its full path.`);
}
