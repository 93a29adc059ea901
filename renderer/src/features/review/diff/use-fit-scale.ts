/**
 * The scale at which an image box fits the room its container offers (watched with a
 * ResizeObserver): small images up to 8x, so an icon is not a speck; large ones shrink to fit.
 */
import { useCallback, useState } from 'react';
import { fitScale, type Size } from './image-math.ts';

/** Room kept below the stage for captions and the slider, in CSS pixels. */
const CHROME_HEIGHT = 150;

/** A ref callback for the container and the scale of `box` in it. */
export function useFitScale(box: Size): [(element: HTMLElement | null) => (() => void) | undefined, number] {
  const [room, setRoom] = useState<Size>({ width: 0, height: 0 });
  const ref = useCallback((element: HTMLElement | null) => {
    if (!element) return undefined;
    const measure = () => {
      const scroller = element.closest('.diff-panel-area') ?? element;
      setRoom({
        width: element.clientWidth,
        height: Math.max(160, scroller.clientHeight - CHROME_HEIGHT),
      });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const upscale = Math.max(1, Math.min(8, Math.floor(192 / Math.max(box.width, box.height))));
  return [ref, fitScale(box, room, upscale)];
}
