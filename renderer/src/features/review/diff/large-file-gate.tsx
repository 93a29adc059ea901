/** The "show anyway" gate in front of a very large diff, saying how large it is and what it costs. */
import type { DiffFile } from './file-diff.ts';
import { gateMessage, type GateReason } from './gate.ts';

interface Props {
  file: DiffFile;
  reason: GateReason;
  loading: boolean;
  onShow: () => void;
}

/** The gate panel; `loading` while the full text is being fetched after "Show anyway". */
export function LargeFileGate({ file, reason, loading, onShow }: Props) {
  return (
    <div className="diff-panel diff-gate" role="group" aria-label="Large diff">
      <div className="diff-panel-title">{gateMessage(reason, file)}</div>
      <p className="diff-panel-text">
        Large diffs are not shown by default, to keep the review responsive. Showing it may take a few
        seconds.
      </p>
      <button type="button" className="diff-btn" onClick={onShow} disabled={loading} aria-busy={loading}>
        {loading ? 'Loading the full diff\u2026' : 'Show anyway'}
      </button>
    </div>
  );
}
