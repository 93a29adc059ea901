/** The <option> elements of a select, from values and optional labels. */
import type { ReactElement } from 'react';

/** One option per value, labelled by `labels[value]` when given. */
export function Options<V extends string>({ values, labels }: { values: readonly V[]; labels?: Record<V, string> }): ReactElement {
  return (
    <>
      {values.map((value) => (
        <option key={value} value={value}>
          {labels ? labels[value] : value}
        </option>
      ))}
    </>
  );
}
