/**
 * Banners over a text diff: hidden bidirectional characters (a warning, as GitHub shows) and a
 * whole-file line-ending change (one sentence instead of a mark on every line).
 */
import type { BidiCount } from './bidi.ts';
import { LineEndIcon, WarningIcon } from './diff-icons.tsx';
import { formatCount } from './format.ts';

/** What the banners say; null parts are not shown. */
export interface DiffBannersProps {
  bidi: BidiCount;
  eol: string | null;
  hideWhitespace: boolean;
  onHideWhitespace: (on: boolean) => void;
}

/** Zero, one or two banners. */
export function DiffBanners({ bidi, eol, hideWhitespace, onHideWhitespace }: DiffBannersProps) {
  if (bidi.lines === 0 && !eol) return null;
  return (
    <div className="diff-banners">
      {bidi.lines > 0 ? (
        <div className="diff-banner is-warning" role="alert">
          <WarningIcon />
          <div className="diff-banner-text">
            <strong>This file contains hidden bidirectional Unicode characters</strong>
            <span>
              {`${formatCount(bidi.chars)} on ${formatCount(bidi.lines)} ${bidi.lines === 1 ? 'line' : 'lines'}. `}
              They can make text read differently from how it is stored or run. Each is shown as a marked
              code point, such as <span className="diff-bidi">U+202E</span>.
            </span>
          </div>
        </div>
      ) : null}
      {eol ? (
        <div className="diff-banner" role="note">
          <LineEndIcon />
          <div className="diff-banner-text">
            <strong>{eol}</strong>
            <span>
              {hideWhitespace
                ? 'Lines that differ only in their endings are shown as unchanged.'
                : 'Every line whose ending changed is part of the diff.'}
            </span>
          </div>
          {!hideWhitespace ? (
            <button type="button" className="diff-btn diff-banner-btn" onClick={() => onHideWhitespace(true)}>
              Hide whitespace changes
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
