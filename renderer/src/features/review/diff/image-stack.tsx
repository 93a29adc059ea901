/**
 * Both images in one frame, the after image over the before: "swipe" cuts the after image at a
 * handle you drag (or move with the slider's keys), "onion skin" fades it in and out.
 */
import { useRef, useState, type CSSProperties, type PointerEvent } from 'react';
import { placement, type Size } from './image-math.ts';
import { useFitScale } from './use-fit-scale.ts';

/** Props: the two loaded images, their box and the mode. */
export interface ImageStackProps {
  oldUrl: string;
  newUrl: string;
  oldSize: Size;
  newSize: Size;
  box: Size;
  mode: 'swipe' | 'onion';
}

/** The stacked comparison. */
export function ImageStack({ oldUrl, newUrl, oldSize, newSize, box, mode }: ImageStackProps) {
  const [swipe, setSwipe] = useState(50);
  const [opacity, setOpacity] = useState(50);
  const stage = useRef<HTMLDivElement>(null);
  const [room, scale] = useFitScale(box);
  const dragging = useRef(false);

  const swipeTo = (event: PointerEvent<HTMLDivElement>) => {
    const rect = stage.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return;
    setSwipe(Math.round(Math.min(100, Math.max(0, ((event.clientX - rect.left) / rect.width) * 100)) * 10) / 10);
  };
  const stageStyle: CSSProperties = {
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
  };
  const pixelated = scale > 1 ? ' is-pixelated' : '';
  return (
    <div className="diff-image-compare" ref={room}>
      <div
        ref={stage}
        className={`diff-image-stage diff-checker${mode === 'swipe' ? ' is-swipe' : ''}`}
        style={stageStyle}
        onPointerDown={(event) => {
          if (mode !== 'swipe') return;
          dragging.current = true;
          event.currentTarget.setPointerCapture(event.pointerId);
          swipeTo(event);
        }}
        onPointerMove={(event) => {
          if (dragging.current) swipeTo(event);
        }}
        onPointerUp={() => {
          dragging.current = false;
        }}
      >
        <Layer url={oldUrl} size={oldSize} box={box} label="Before" className={pixelated} />
        <Layer
          url={newUrl}
          size={newSize}
          box={box}
          label="After"
          className={`diff-image-after${pixelated}`}
          style={
            mode === 'swipe' ? { clipPath: `inset(0 0 0 ${swipe}%)` } : { opacity: opacity / 100 }
          }
        />
        {mode === 'swipe' ? (
          <div className="diff-swipe-handle" style={{ left: `${swipe}%` }} aria-hidden="true">
            <span className="diff-swipe-grip" />
          </div>
        ) : null}
      </div>
      <div className="diff-image-slider">
        <span className="diff-image-tag is-del">Before</span>
        {mode === 'swipe' ? (
          <input
            type="range"
            min={0}
            max={100}
            step={1}
            value={swipe}
            aria-label="Swipe position: before on the left, after on the right"
            onChange={(event) => setSwipe(Number(event.target.value))}
          />
        ) : (
          <input
            type="range"
            min={0}
            max={100}
            step={1}
            value={opacity}
            aria-label="Opacity of the after image"
            onChange={(event) => setOpacity(Number(event.target.value))}
          />
        )}
        <span className="diff-image-tag is-add">After</span>
      </div>
    </div>
  );
}

function Layer({
  url,
  size,
  box,
  label,
  className = '',
  style,
}: {
  url: string;
  size: Size;
  box: Size;
  label: string;
  className?: string;
  style?: CSSProperties;
}) {
  const at = placement(size, box);
  return (
    <div className={`diff-image-layer ${className}`.trim()} style={style}>
      <img
        src={url}
        alt={label}
        draggable={false}
        style={{ left: `${at.left}%`, top: `${at.top}%`, width: `${at.width}%`, height: `${at.height}%` }}
      />
    </div>
  );
}
