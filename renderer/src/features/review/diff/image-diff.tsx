/** Images side by side on a transparency checkerboard, each with its pixel dimensions and file size. */
import { useState } from 'react';
import { deltaClass } from './binary-diff.tsx';
import type { DiffFile } from './file-diff.ts';
import { formatBytes, formatSizeDelta } from './format.ts';

/** Before and after of an image file. */
export function ImageDiff({ file }: { file: DiffFile }) {
  return (
    <div className="diff-images">
      <ImagePane label="Before" url={file.oldImageUrl ?? null} size={file.oldSize} kind="del" />
      <ImagePane label="After" url={file.newImageUrl ?? null} size={file.newSize} kind="add" />
      <div className={`diff-images-delta diff-delta ${deltaClass(file.oldSize, file.newSize)}`}>
        {formatSizeDelta(file.oldSize, file.newSize)}
      </div>
    </div>
  );
}

function ImagePane({
  label,
  url,
  size,
  kind,
}: {
  label: string;
  url: string | null;
  size: number | null;
  kind: 'add' | 'del';
}) {
  const [dimensions, setDimensions] = useState<{ url: string; text: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const shownDimensions = dimensions && dimensions.url === url ? dimensions.text : null;
  return (
    <figure className={`diff-image-pane is-${kind}`} aria-label={label}>
      <figcaption>
        <span className="diff-image-label">{label}</span>
        {url ? <span>{shownDimensions ?? '\u2026'}</span> : null}
        {size !== null ? <span>{formatBytes(size)}</span> : null}
      </figcaption>
      <div className="diff-image-frame">
        {!url ? (
          <span className="diff-faint">
            {kind === 'del' ? 'No image before this change' : 'Image removed'}
          </span>
        ) : failed === url ? (
          <span className="diff-faint">The image could not be loaded.</span>
        ) : (
          <img
            src={url}
            alt={`${label}: ${shownDimensions ?? 'image'}`}
            onLoad={(event) =>
              setDimensions({
                url,
                text: `${event.currentTarget.naturalWidth} \u00d7 ${event.currentTarget.naturalHeight} px`,
              })
            }
            onError={() => setFailed(url)}
          />
        )}
      </div>
    </figure>
  );
}
