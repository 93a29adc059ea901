/**
 * One drawn row of the text diff: a hunk header with its expand controls, a trailing gap, a
 * unified line, or a side-by-side pair. Rows are absolutely placed by the virtual list.
 */
import { memo, type CSSProperties, type ReactNode } from 'react';
import { ExpandAllIcon, ExpandDownIcon, ExpandUpIcon, NoNewlineIcon } from './diff-icons.tsx';
import {
  EXPAND_STEP,
  expandDirections,
  formatHunkHeader,
  type DiffRow,
  type ExpandDirection,
  type Gap,
} from './diff-rows.ts';
import { nounFor } from '../../../lib/counts.ts';
import { formatCount } from './format.ts';
import type { DiffLine, LineDiff } from './line-diff.ts';
import { lineTokens, type TokenTable } from './token-table.ts';
import { lineSegments, type Segment } from './tokens.ts';
import type { Range } from './word-diff.ts';
import { bidiTitle, codePointLabel } from './bidi.ts';
import type { FindMatch } from './find.ts';
import { linePieces, needsPieces, type Piece } from './line-pieces.ts';
import { NoteGutterButton } from '../notes/note-gutter.tsx';
import { isUnpicked, NumCell, PickCell } from '../selection/pick-cells.tsx';
import type { LinePick } from '../selection/use-line-pick.ts';

/** Characters of a line drawn at most; the rest is summarised (a minified file's one line). */
export const MAX_RENDERED_CHARS = 5000;

/** What every row needs besides its own data; one object per render of the list. */
export interface RowContext {
  diff: LineDiff;
  oldTokens: TokenTable | null;
  newTokens: TokenTable | null;
  /** The changed ranges of a deleted or added line, against its paired line. */
  words: (line: number) => Range[] | null;
  /** Mark CRLF endings on changed lines (the two sides end lines differently). */
  markCrlf: boolean;
  onExpand: (gap: Gap, direction: ExpandDirection) => void;
  /** Opens the collapsed run holding diff line `line` (a jump to a note there). */
  reveal?: (line: number) => void;
  /** Find matches to mark, by line, and the current one. */
  hits: Map<number, Range[]> | null;
  current: FindMatch | null;
  /** Choosing hunks and lines for a partial commit (review only): the hunk column and line toggles. */
  pick?: LinePick | null;
}

interface RowProps {
  row: DiffRow;
  index: number;
  ctx: RowContext;
  focused: boolean;
  top: number;
  height: number;
}

/** A row of the diff table; memoised so scrolling re-renders only rows that enter the window. */
export const DiffRowView = memo(function DiffRowView({ row, index, ctx, focused, top, height }: RowProps) {
  const style: CSSProperties = { height, transform: `translateY(${top}px)` };
  const common = {
    role: 'row',
    'aria-rowindex': index + 1,
    style,
    'data-focused': focused || undefined,
  } as const;
  if (row.type === 'hunk' || row.type === 'gap') {
    const gap = row.gap;
    const hidden = gap ? gap.end - gap.start : 0;
    return (
      <div {...common} className={`diff-row diff-hunk${row.type === 'gap' ? ' is-trailing' : ''}`}>
        {ctx.pick ? <span role="cell" className="diff-pick" /> : null}
        <span role="cell" className="diff-expand">
          {gap
            ? expandDirections(gap).map((direction) => (
                <ExpandButton key={direction} gap={gap} direction={direction} onExpand={ctx.onExpand} />
              ))
            : null}
        </span>
        <span role="cell" className="diff-hunk-text">
          {row.type === 'hunk' ? formatHunkHeader(row.header) : null}
          {hidden > 0 ? (
            <span className="diff-hidden-count">{`${formatCount(hidden)} unchanged ${nounFor(hidden, 'line')} hidden`}</span>
          ) : null}
        </span>
      </div>
    );
  }
  if (row.type === 'line') {
    const line = ctx.diff.lines[row.line] as DiffLine;
    return (
      <div {...common} className={`diff-row diff-unified is-${line.kind}${isUnpicked(ctx.pick, row.line) ? ' is-unpicked' : ''}`}>
        {ctx.pick ? <PickCell pick={ctx.pick} row={index} /> : null}
        <NumCell pick={ctx.pick} line={row.line} className="diff-num" no={line.oldNo} />
        <NumCell pick={ctx.pick} line={row.line} className="diff-num" no={line.newNo} />
        <Sign kind={line.kind} side={line.kind === 'del' ? 'old' : 'new'} no={line.kind === 'del' ? line.oldNo : line.newNo} />
        <span role="cell" className="diff-code">
          <LineCode line={line} index={row.line} ctx={ctx} side={line.kind === 'del' ? 'old' : 'new'} />
        </span>
      </div>
    );
  }
  return (
    <div {...common} className="diff-row diff-split">
      {ctx.pick ? <PickCell pick={ctx.pick} row={index} /> : null}
      <Half index={row.left} side="old" ctx={ctx} />
      <Half index={row.right} side="new" ctx={ctx} />
    </div>
  );
});

function Half({ index, side, ctx }: { index: number; side: 'old' | 'new'; ctx: RowContext }) {
  const line = ctx.diff.lines[index];
  if (!line) {
    return (
      <>
        <span role="cell" className="diff-num is-empty" />
        <span role="cell" className="diff-sign is-empty" />
        <span
          role="cell"
          className="diff-code is-empty"
          aria-label={side === 'old' ? 'no old line' : 'no new line'}
        />
      </>
    );
  }
  const kind = line.kind;
  const cls = isUnpicked(ctx.pick, index) ? `is-${kind} is-unpicked` : `is-${kind}`;
  return (
    <>
      <NumCell pick={ctx.pick} line={index} className={`diff-num ${cls}`} no={side === 'old' ? line.oldNo : line.newNo} />
      <Sign kind={kind} side={side} no={side === 'old' ? line.oldNo : line.newNo} />
      <span role="cell" className={`diff-code ${cls}`}>
        <LineCode line={line} index={index} ctx={ctx} side={side} />
      </span>
    </>
  );
}

const SIGNS = { add: ['+', 'added'], del: ['\u2212', 'removed'], context: ['', 'unchanged'] } as const;

function Sign({ kind, side, no }: { kind: DiffLine['kind']; side: 'old' | 'new'; no: number | null }) {
  const [glyph, label] = SIGNS[kind];
  return (
    <span role="cell" className={`diff-sign is-${kind}`}>
      <span aria-hidden="true">{glyph}</span>
      <span className="diff-sr-only">{label}</span>
      <NoteGutterButton side={side} line={no} />
    </span>
  );
}

function LineCode({
  line,
  index,
  ctx,
  side,
}: {
  line: DiffLine;
  index: number;
  ctx: RowContext;
  side: 'old' | 'new';
}) {
  const clipped = line.text.length > MAX_RENDERED_CHARS;
  const text = clipped ? line.text.slice(0, MAX_RENDERED_CHARS) : line.text;
  // Context lines carry the new side's text (with whitespace hidden, the old one may differ).
  const tokens = clipped
    ? null
    : side === 'old' && line.kind !== 'context'
      ? lineTokens(ctx.oldTokens, (line.oldNo ?? 0) - 1, text)
      : lineTokens(ctx.newTokens, (line.newNo ?? 0) - 1, text);
  const segments = lineSegments(text, tokens, line.kind === 'context' ? null : ctx.words(index));
  const hits = ctx.hits?.get(index) ?? null;
  const pieces: Array<Segment | Piece> = needsPieces(text, hits)
    ? linePieces(segments, hits, isCurrentLine(ctx, index, line, side) ? (ctx.current?.start ?? -1) : -1)
    : segments;
  return (
    <>
      {pieces.map((piece, i) => (
        <PieceView key={i} piece={piece} />
      ))}
      {clipped ? (
        <span className="diff-marker">{`\u2026 ${formatCount(line.text.length - MAX_RENDERED_CHARS)} more characters`}</span>
      ) : null}
      {line.crlf && ctx.markCrlf && line.kind !== 'context' ? (
        <span className="diff-marker diff-crlf" title="This line ends with CRLF (\r\n)">
          CRLF
        </span>
      ) : null}
      {line.noEol ? (
        <span className="diff-marker diff-noeol" title="\ No newline at end of file">
          <NoNewlineIcon />
          <span>No newline at end of file</span>
        </span>
      ) : null}
    </>
  );
}

/** A context line is drawn twice side by side: its current match is marked once, on the new half. */
function isCurrentLine(ctx: RowContext, index: number, line: DiffLine, side: 'old' | 'new'): boolean {
  return ctx.current?.line === index && (line.kind !== 'context' || side === 'new');
}

function PieceView({ piece }: { piece: Segment | Piece }) {
  const cls = piece.changed ? `${piece.cls} diff-word`.trim() : piece.cls;
  const hit = 'hit' in piece ? piece.hit : 'none';
  let content: ReactNode = piece.text;
  if ('bidi' in piece && piece.bidi) {
    content = (
      <span className="diff-bidi" title={`Hidden bidirectional character: ${bidiTitle(piece.text)}`}>
        {codePointLabel(piece.text)}
      </span>
    );
  }
  if (cls) content = <span className={cls}>{content}</span>;
  if (hit !== 'none') {
    content = (
      <mark className={hit === 'current' ? 'diff-hit is-current' : 'diff-hit'} data-current={hit === 'current' || undefined}>
        {content}
      </mark>
    );
  }
  return <>{content}</>;
}

const EXPAND_LABEL: Record<ExpandDirection, (gap: Gap) => string> = {
  up: () => `Show ${EXPAND_STEP} more lines above`,
  down: () => `Show ${EXPAND_STEP} more lines below`,
  all: (gap) => `Show all ${formatCount(gap.end - gap.start)} hidden lines`,
};

const EXPAND_ICON = { up: ExpandUpIcon, down: ExpandDownIcon, all: ExpandAllIcon } as const;

function ExpandButton({
  gap,
  direction,
  onExpand,
}: {
  gap: Gap;
  direction: ExpandDirection;
  onExpand: RowContext['onExpand'];
}) {
  const Glyph = EXPAND_ICON[direction];
  const label = EXPAND_LABEL[direction](gap);
  return (
    <button
      type="button"
      className="diff-expand-btn"
      aria-label={label}
      title={label}
      onClick={() => onExpand(gap, direction)}
    >
      <Glyph />
    </button>
  );
}
