/**
 * A tool file shown with line numbers and each problem beside the line it concerns, so a user
 * sees exactly where to fix it. Problems without a line are listed above the text.
 */
import { useEffect, useRef, type ReactElement, type ReactNode } from 'react';
import type { ToolFileIssue } from '../../../../shared/dto.ts';
import { Icon } from '../../components/icons.tsx';
import { annotateLines } from '../../lib/yaml-lines.ts';

/** The numbered text with its issues (each with an optional `action` under it); scrolls the first issue into view. */
export function AnnotatedYaml({
  text,
  issues,
  label,
  action,
}: {
  text: string;
  issues: readonly ToolFileIssue[];
  label: string;
  action?: (issue: ToolFileIssue) => ReactNode;
}): ReactElement {
  const { lines, unlocated } = annotateLines(text, issues);
  const firstIssue = useRef<HTMLDivElement>(null);
  useEffect(() => {
    firstIssue.current?.scrollIntoView({ block: 'nearest' });
  }, [text, issues]);
  let marked = false;
  return (
    <div className="yaml-view" role="region" aria-label={label}>
      {unlocated.map((issue, index) => (
        <div className="yaml-issue yaml-issue-file" key={`u${index}`} role="alert">
          <Icon name="alert" size={14} />
          {issue.message}
        </div>
      ))}
      <div className="yaml-lines">
        {lines.map((line) => {
          const first = line.issues.length > 0 && !marked;
          if (first) marked = true;
          return (
            <div key={line.number} className={line.issues.length > 0 ? 'yaml-line has-issue' : 'yaml-line'} ref={first ? firstIssue : undefined} data-line={line.number}>
              <span className="yaml-gutter" aria-hidden="true">
                {line.number}
              </span>
              <span className="yaml-code">{line.text || ' '}</span>
              {line.issues.length > 0 && (
                <span className="yaml-notes">
                  {line.issues.map((issue, index) => (
                    <span className="yaml-issue" key={index} role="alert">
                      <span className="visually-hidden">Line {line.number}: </span>
                      {issue.field && <code className="yaml-field">{issue.field}</code>}
                      {issue.message}
                      {action?.(issue)}
                    </span>
                  ))}
                </span>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
