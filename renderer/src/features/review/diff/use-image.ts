/**
 * An image loaded off screen: its element (for drawing into a canvas) and natural size, or that it
 * failed. Both sides of an image diff load through this, so every mode waits for the same sizes.
 */
import { useEffect, useState } from 'react';
import type { Size } from './image-math.ts';

/** The load state of one image URL. */
export type LoadedImage =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'ready'; element: HTMLImageElement; size: Size };

/** Loads `url` (a data: URL from the service, never remote); null means the side has no image. */
export function useImage(url: string | null): LoadedImage {
  const [loaded, setLoaded] = useState<{ url: string; image: LoadedImage } | null>(null);
  useEffect(() => {
    if (!url) return undefined;
    let live = true;
    const element = new Image();
    element.decoding = 'async';
    element.onload = () => {
      if (!live) return;
      // An SVG without a size of its own reports 0 in some engines: give it the default box.
      const size = {
        width: element.naturalWidth || 300,
        height: element.naturalHeight || 150,
      };
      setLoaded({ url, image: { state: 'ready', element, size } });
    };
    element.onerror = () => {
      if (live) setLoaded({ url, image: { state: 'failed' } });
    };
    element.src = url;
    return () => {
      live = false;
    };
  }, [url]);
  if (!url) return { state: 'none' };
  return loaded && loaded.url === url ? loaded.image : { state: 'loading' };
}
