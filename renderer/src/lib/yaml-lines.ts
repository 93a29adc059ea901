/**
 * Puts tool-file problems beside the lines they concern: the text split into numbered lines,
 * each with its issues, plus the issues that name no line (shown above the text).
 */
import type { ToolFileIssue } from '../../../shared/dto.ts';

/** One line of the file and the problems reported at it. */
export interface AnnotatedLine {
  number: number;
  text: string;
  issues: ToolFileIssue[];
}

/** The file as numbered lines, and the problems that have no line of their own. */
export interface AnnotatedText {
  lines: AnnotatedLine[];
  unlocated: ToolFileIssue[];
}

/** Maps each issue to its 1-based line; lines past the end go to the last line. */
export function annotateLines(text: string, issues: readonly ToolFileIssue[]): AnnotatedText {
  const raw = text.replace(/\r\n?/g, '\n').split('\n');
  // A trailing newline ends the last line; it does not start an empty one.
  if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop();
  const lines: AnnotatedLine[] = raw.map((line, index) => ({ number: index + 1, text: line, issues: [] }));
  const unlocated: ToolFileIssue[] = [];
  for (const issue of issues) {
    if (issue.line === null || issue.line < 1 || lines.length === 0) {
      unlocated.push(issue);
      continue;
    }
    const target = lines[Math.min(issue.line, lines.length) - 1];
    target?.issues.push(issue);
  }
  return { lines, unlocated };
}

/** The issues carried by a failed import (`details.issues`), or none. */
export function issuesFromDetails(details: unknown): ToolFileIssue[] {
  if (typeof details !== 'object' || details === null) return [];
  const issues = (details as { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter(isIssue);
}

function isIssue(value: unknown): value is ToolFileIssue {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.message === 'string' && (typeof candidate.line === 'number' || candidate.line === null);
}
