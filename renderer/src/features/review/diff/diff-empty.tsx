/** The panel shown when there is no text change to draw: renamed only, mode only, or identical. */
import type { DiffFile } from './file-diff.ts';
import { emptyMessage } from './file-notes.ts';

/** The empty-state panel. */
export function DiffEmpty({ file, hasText }: { file: DiffFile; hasText: boolean }) {
  const { title, detail } = emptyMessage(file, hasText);
  return (
    <div className="diff-panel diff-empty" role="status">
      <div className="diff-panel-title">{title}</div>
      {detail ? <p className="diff-panel-text">{detail}</p> : null}
    </div>
  );
}
