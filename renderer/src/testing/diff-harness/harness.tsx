/**
 * The diff viewer harness (test scaffolding, never in the app's build): every kind of sample in
 * one page (diff-harness.html beside it), for screenshots and e2e/diff-viewer.spec.ts, which
 * builds it. `?sample=<id>&mode=unified|split&context=all` picks the starting state
 * (`context=all` shows whole files instead of 3 lines around each change).
 */
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DiffView } from '../../features/review/diff/diff-view.tsx';
import type { DiffFile, DiffMode } from '../../features/review/diff/file-diff.ts';
import { createSamples, type Sample } from './harness-samples.ts';
import { gatedTexts } from './harness-texts.ts';
import './harness.css';

/** Two small PNGs drawn on a canvas: a badge, and the same badge recoloured and grown. */
function drawImages() {
  const draw = (size: number, fill: string, label: string) => {
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const g = canvas.getContext('2d');
    if (g) {
      g.fillStyle = fill;
      g.beginPath();
      g.roundRect(size * 0.08, size * 0.08, size * 0.84, size * 0.84, size * 0.2);
      g.fill();
      g.fillStyle = '#ffffff';
      g.font = `600 ${Math.round(size * 0.42)}px sans-serif`;
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillText(label, size / 2, size / 2 + size * 0.02);
    }
    const url = canvas.toDataURL('image/png');
    return { url, bytes: Math.floor(((url.length - url.indexOf(',') - 1) * 3) / 4) };
  };
  const before = draw(128, '#0a66d8', 'B');
  const after = draw(160, '#8250df', 'B');
  return { before: before.url, after: after.url, beforeSize: before.bytes, afterSize: after.bytes };
}

function Harness() {
  const params = new URLSearchParams(window.location.search);
  const samples = useMemo<Sample[]>(() => createSamples(drawImages()), []);
  const [selected, setSelected] = useState(params.get('sample') ?? 'code');
  const [mode, setMode] = useState<DiffMode>(params.get('mode') === 'unified' ? 'unified' : 'split');
  const contextLines = params.get('context') === 'all' ? Infinity : undefined;
  const [loaded, setLoaded] = useState<Record<string, DiffFile>>({});
  const sample = samples.find((s) => s.id === selected) ?? (samples[0] as Sample);
  const file = loaded[sample.id] ?? sample.file;
  return (
    <div className="harness">
      <nav className="harness-nav" aria-label="Samples">
        <div className="harness-title">Diff viewer samples</div>
        {samples.map((s) => (
          <button
            key={s.id}
            type="button"
            className="harness-sample"
            data-sample={s.id}
            aria-current={s.id === sample.id ? 'page' : undefined}
            onClick={() => setSelected(s.id)}
          >
            {s.label}
          </button>
        ))}
      </nav>
      <main className="harness-main">
        <DiffView
          file={file}
          mode={mode}
          onModeChange={setMode}
          contextLines={contextLines}
          onRequestFullText={() =>
            setTimeout(
              () => setLoaded((prev) => ({ ...prev, [sample.id]: { ...sample.file, ...gatedTexts() } })),
              0,
            )
          }
        />
      </main>
    </div>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('diff-harness.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
