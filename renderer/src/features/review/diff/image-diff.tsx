/**
 * An image file's change, four ways: side by side (each on a transparency checkerboard with its
 * size), swipe, onion skin and difference. Images arrive as data: URLs and are drawn as images
 * only (an SVG never becomes markup in the page). One side alone is shown side by side.
 */
import { useState } from 'react';
import { deltaClass } from './binary-diff.tsx';
import type { DiffFile } from './file-diff.ts';
import { formatBytes, formatSizeDelta } from './format.ts';
import { ImageDifference } from './image-difference.tsx';
import { stackBox } from './image-math.ts';
import { ImageStack } from './image-stack.tsx';
import { useImage, type LoadedImage } from './use-image.ts';

/** The ways to compare two images. */
export type ImageMode = 'side' | 'swipe' | 'onion' | 'difference';

const MODES: Array<[ImageMode, string]> = [
  ['side', 'Side by side'],
  ['swipe', 'Swipe'],
  ['onion', 'Onion skin'],
  ['difference', 'Difference'],
];

/** Before and after of an image file; `defaultMode` picks the first view. */
export function ImageDiff({ file, defaultMode = 'side' }: { file: DiffFile; defaultMode?: ImageMode }) {
  const [mode, setMode] = useState<ImageMode>(defaultMode);
  const oldUrl = file.oldImageUrl ?? null;
  const newUrl = file.newImageUrl ?? null;
  const before = useImage(oldUrl);
  const after = useImage(newUrl);
  const both = before.state === 'ready' && after.state === 'ready';
  const shown = oldUrl && newUrl ? mode : 'side';
  let body;
  if (shown === 'side' || !both) {
    body = (
      <div className="diff-images">
        <ImagePane label="Before" url={oldUrl} image={before} size={file.oldSize} kind="del" />
        <ImagePane label="After" url={newUrl} image={after} size={file.newSize} kind="add" />
      </div>
    );
  } else {
    const box = stackBox(before.size, after.size);
    body =
      shown === 'difference' ? (
        <ImageDifference
          oldImage={before.element}
          newImage={after.element}
          oldSize={before.size}
          newSize={after.size}
          box={box}
        />
      ) : (
        <ImageStack
          oldUrl={before.element.src}
          newUrl={after.element.src}
          oldSize={before.size}
          newSize={after.size}
          box={box}
          mode={shown}
        />
      );
  }
  return (
    <div className="diff-image-diff" data-image-mode={shown}>
      {oldUrl && newUrl ? (
        <div className="diff-image-bar">
          <ImageModeToggle mode={mode} onChange={setMode} />
        </div>
      ) : null}
      {body}
      {shown !== 'side' ? (
        <div className="diff-image-legend">
          <Caption label="Before" image={before} size={file.oldSize} kind="del" />
          <Caption label="After" image={after} size={file.newSize} kind="add" />
        </div>
      ) : null}
      <div className={`diff-images-delta diff-delta ${deltaClass(file.oldSize, file.newSize)}`}>
        {formatSizeDelta(file.oldSize, file.newSize)}
      </div>
    </div>
  );
}

function ImageModeToggle({ mode, onChange }: { mode: ImageMode; onChange: (mode: ImageMode) => void }) {
  const step = (delta: number) => {
    const index = MODES.findIndex(([value]) => value === mode);
    const next = MODES[(index + delta + MODES.length) % MODES.length];
    if (next) onChange(next[0]);
  };
  return (
    <span className="diff-toggle" role="radiogroup" aria-label="Compare images">
      {MODES.map(([value, label]) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={mode === value}
          tabIndex={mode === value ? 0 : -1}
          className="diff-toggle-option"
          onClick={() => onChange(value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
              event.preventDefault();
              step(event.key === 'ArrowLeft' ? -1 : 1);
            }
          }}
        >
          {label}
        </button>
      ))}
    </span>
  );
}

function dimensions(image: LoadedImage): string | null {
  return image.state === 'ready' ? `${image.size.width} \u00d7 ${image.size.height} px` : null;
}

function Caption({
  label,
  image,
  size,
  kind,
}: {
  label: string;
  image: LoadedImage;
  size: number | null;
  kind: 'add' | 'del';
}) {
  return (
    <span className={`diff-image-caption is-${kind}`}>
      <span className="diff-image-swatch" aria-hidden="true" />
      <span className="diff-image-label">{label}</span>
      {dimensions(image) ? <span>{dimensions(image)}</span> : null}
      {size !== null ? <span>{formatBytes(size)}</span> : null}
    </span>
  );
}

function ImagePane({
  label,
  url,
  image,
  size,
  kind,
}: {
  label: string;
  url: string | null;
  image: LoadedImage;
  size: number | null;
  kind: 'add' | 'del';
}) {
  const shownDimensions = dimensions(image);
  return (
    <figure className={`diff-image-pane is-${kind}`} aria-label={label}>
      <figcaption>
        <span className="diff-image-label">{label}</span>
        {url ? <span>{shownDimensions ?? '\u2026'}</span> : null}
        {size !== null ? <span>{formatBytes(size)}</span> : null}
      </figcaption>
      <div className="diff-image-frame diff-checker">
        {!url ? (
          <span className="diff-faint">{kind === 'del' ? 'No image before this change' : 'Image removed'}</span>
        ) : image.state === 'failed' ? (
          <span className="diff-faint">The image could not be loaded.</span>
        ) : (
          <img src={url} alt={`${label}: ${shownDimensions ?? 'image'}`} />
        )}
      </div>
    </figure>
  );
}
