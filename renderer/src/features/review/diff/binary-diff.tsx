/** Binary files are not diffed: the viewer says so and shows the sizes, before -> after, and the change. */
import { ArrowRightIcon, BinaryFileIcon } from './diff-icons.tsx';
import type { DiffFile } from './file-diff.ts';
import { formatBytes, formatCount, formatSizeDelta } from './format.ts';

/** The size summary of a binary file. */
export function BinaryDiff({ file }: { file: DiffFile }) {
  const size = (bytes: number | null) =>
    bytes === null ? (
      <span className="diff-faint">none</span>
    ) : (
      <span title={`${formatCount(bytes)} bytes`}>{formatBytes(bytes)}</span>
    );
  return (
    <div className="diff-panel diff-binary" role="group" aria-label="Binary file">
      <BinaryFileIcon />
      <div className="diff-panel-title">Binary file not shown</div>
      <div className="diff-binary-sizes">
        {size(file.oldSize)}
        <ArrowRightIcon />
        {size(file.newSize)}
        <span className={`diff-delta ${deltaClass(file.oldSize, file.newSize)}`}>
          {formatSizeDelta(file.oldSize, file.newSize)}
        </span>
      </div>
    </div>
  );
}

/** Colour class of a size change: growth green, shrinkage red. */
export function deltaClass(oldSize: number | null, newSize: number | null): string {
  const delta = (newSize ?? 0) - (oldSize ?? 0);
  return delta > 0 ? 'is-grow' : delta < 0 ? 'is-shrink' : '';
}
