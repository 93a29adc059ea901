/**
 * The difference of two images, drawn in a canvas: black where the pixels agree, brighter the more
 * they differ, with a count of the pixels that differ. Should the canvas refuse to give its pixels
 * back, the same picture comes from CSS (mix-blend-mode: difference), without the count.
 */
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { diffPixels, diffSummary, placement, type Size } from './image-math.ts';
import { useFitScale } from './use-fit-scale.ts';

/** Pixels compared in a canvas at most (about 64 MB per side); larger images blend in CSS. */
const MAX_DIFF_PIXELS = 16_000_000;

/** Props: the two decoded images and their box. */
export interface ImageDifferenceProps {
  oldImage: HTMLImageElement;
  newImage: HTMLImageElement;
  oldSize: Size;
  newSize: Size;
  box: Size;
}

/** The difference view. */
export function ImageDifference({ oldImage, newImage, oldSize, newSize, box }: ImageDifferenceProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [summary, setSummary] = useState<string | null>(null);
  const [fallback, setFallback] = useState(false);
  const [room, scale] = useFitScale(box);

  useEffect(() => {
    const target = canvas.current;
    if (!target) return;
    if (box.width * box.height > MAX_DIFF_PIXELS) {
      setFallback(true);
      return;
    }
    try {
      const a = pixelsOf(oldImage, oldSize, box);
      const b = pixelsOf(newImage, newSize, box);
      const context = target.getContext('2d');
      if (!context) throw new Error('No 2D canvas.');
      const out = context.createImageData(box.width, box.height);
      const changed = diffPixels(a, b, out.data);
      context.putImageData(out, 0, 0);
      setSummary(diffSummary(changed, box.width * box.height));
      setFallback(false);
    } catch {
      setFallback(true);
    }
  }, [oldImage, newImage, oldSize, newSize, box]);

  const stageStyle: CSSProperties = {
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
  };
  const pixelated = scale > 1 ? ' is-pixelated' : '';
  return (
    <div className="diff-image-compare" ref={room}>
      <div className="diff-image-stage is-difference" style={stageStyle}>
        {fallback ? (
          <>
            <BlendLayer url={oldImage.src} size={oldSize} box={box} className={pixelated} />
            <BlendLayer url={newImage.src} size={newSize} box={box} className={`is-blend${pixelated}`} />
          </>
        ) : (
          <canvas
            ref={canvas}
            className={`diff-image-canvas${pixelated}`}
            width={box.width}
            height={box.height}
            role="img"
            aria-label="Difference of the two images: black where they agree"
          />
        )}
      </div>
      <div className="diff-image-slider is-caption" role="status">
        {fallback ? 'Black where the images agree' : (summary ?? 'Comparing\u2026')}
      </div>
    </div>
  );
}

/** The RGBA pixels of an image centred in the box, transparent around it. */
function pixelsOf(image: HTMLImageElement, size: Size, box: Size): Uint8ClampedArray {
  const scratch = document.createElement('canvas');
  scratch.width = box.width;
  scratch.height = box.height;
  const context = scratch.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('No 2D canvas.');
  const at = placement(size, box);
  context.drawImage(
    image,
    Math.round((at.left / 100) * box.width),
    Math.round((at.top / 100) * box.height),
    size.width,
    size.height,
  );
  return context.getImageData(0, 0, box.width, box.height).data;
}

function BlendLayer({ url, size, box, className }: { url: string; size: Size; box: Size; className: string }) {
  const at = placement(size, box);
  return (
    <div className={`diff-image-layer ${className}`.trim()}>
      <img
        src={url}
        alt=""
        style={{ left: `${at.left}%`, top: `${at.top}%`, width: `${at.width}%`, height: `${at.height}%` }}
      />
    </div>
  );
}
