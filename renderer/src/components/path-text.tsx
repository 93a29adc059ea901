/**
 * A filesystem path in monospace that, when it does not fit, loses its start rather than its
 * end: the folder name is the part people recognise. The full path is in the tooltip.
 */
import type { ReactElement } from 'react';

/** One truncating path. */
export function PathText({ path, muted = true }: { path: string; muted?: boolean }): ReactElement {
  return (
    <span className={muted ? 'mono truncate truncate-start muted' : 'mono truncate truncate-start'} title={path}>
      {/* The marks keep the path's own direction inside the right-to-left box. */}
      {`\u200e${path}\u200e`}
    </span>
  );
}
