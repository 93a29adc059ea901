/**
 * The three-way view of a conflict that needs a person: each conflicting stretch as three columns,
 * base | original | sandbox, with line numbers, between the lines the merge settles (folded to a
 * few lines of context), so it is plain what each side did to the base.
 */
import type { ReactElement } from 'react';
import type { MergeHunk } from '../../../../shared/dto.ts';
import { formatCount } from '../../lib/counts.ts';
import { threeWayRows, type ThreeWayRow } from './conflict-rows.ts';
import { bidiTitle, codePointLabel, splitBidi } from './diff/bidi.ts';
import './conflict-three-way.css';

const SIDES = [
  { key: 'base', label: 'Base', hint: 'when the sandbox was made' },
  { key: 'original', label: 'Original', hint: 'as it is now' },
  { key: 'sandbox', label: 'Sandbox', hint: 'what the tool wrote' },
] as const;

/** The view; `hunks` come from the merge dry run (mergePreview). */
export function ThreeWayView({ hunks }: { hunks: MergeHunk[] }): ReactElement {
  const rows = threeWayRows(hunks);
  return (
    <div className="three-way" role="table" aria-label="Three-way view: base, original, sandbox">
      <div className="three-way-head" role="row">
        {SIDES.map((side) => (
          <span key={side.key} role="columnheader" className={`three-way-col is-${side.key}`}>
            <strong>{side.label}</strong> <span className="muted">{side.hint}</span>
          </span>
        ))}
      </div>
      <div className="three-way-body">
        {rows.map((row, index) => (
          <Row key={index} row={row} />
        ))}
      </div>
    </div>
  );
}

function Row({ row }: { row: ThreeWayRow }): ReactElement {
  if (row.kind === 'fold') {
    return (
      <div className="three-way-fold" role="row">
        <span role="cell">⋯ {formatCount(row.count, 'line')} the merge settles ⋯</span>
      </div>
    );
  }
  if (row.kind === 'same') {
    return (
      <div className="three-way-row is-same" role="row">
        {SIDES.map((side) => (
          <Cell key={side.key} number={row.numbers[side.key]} text={row.text} />
        ))}
      </div>
    );
  }
  return (
    <div className="three-way-row is-conflict" role="row" aria-label={`Conflict ${row.index}`}>
      {SIDES.map((side) => (
        <div key={side.key} role="cell" className={`three-way-side is-${side.key}`}>
          {row[side.key].length === 0 ? (
            <span className="three-way-empty">{side.key === 'base' ? 'nothing here' : 'removed'}</span>
          ) : (
            row[side.key].map((line) => <Cell key={line.number} number={line.number} text={line.text} />)
          )}
        </div>
      ))}
    </div>
  );
}

function Cell({ number, text }: { number: number; text: string }): ReactElement {
  return (
    <div className="three-way-line">
      <span className="three-way-num" aria-hidden="true">
        {number}
      </span>
      <span className="three-way-text">
        {text === ''
          ? ' '
          : // A hidden bidirectional character is drawn as its code point, as in the diff: raw, it could make the sides read differently from what they hold.
            splitBidi(text).map((part, i) =>
              part.bidi ? (
                <span key={i} className="three-way-bidi" title={`Hidden bidirectional character: ${bidiTitle(part.text)}`}>
                  {codePointLabel(part.text)}
                </span>
              ) : (
                part.text
              ),
            )}
      </span>
    </div>
  );
}
