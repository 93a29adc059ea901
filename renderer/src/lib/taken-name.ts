/**
 * A tool-file problem that only says the tool's name is taken: the import can replace the
 * registered tool instead. The app says it shorter and puts a "Replace" button in place of the
 * core's advice.
 */
import type { ToolFileIssue } from '../../../shared/dto.ts';

// The core's sentence, or the app's own once appIssue has reworded it.
const TAKEN = /^(?:Tool|A tool named) "(.+)" is already registered\b/;

/** The taken tool name an issue reports (in the core's words or the app's), or null for any other problem. */
export function takenToolName(issue: Pick<ToolFileIssue, 'message'>): string | null {
  return TAKEN.exec(issue.message)?.[1] ?? null;
}

/** The issue as the app says it: a taken name without the advice (the button is); other issues unchanged. */
export function appIssue(issue: ToolFileIssue): ToolFileIssue {
  const name = takenToolName(issue);
  return name === null ? issue : { ...issue, message: `A tool named "${name}" is already registered.` };
}
