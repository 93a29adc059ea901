import { describe, expect, it } from 'vitest';
import { appIssue, takenToolName } from './taken-name.ts';

const issue = (message: string) => ({ file: 'tool.yaml', line: 1, column: 7, field: 'name', message });

describe('taken tool names', () => {
  it('finds the name in the core sentence and drops its advice', () => {
    const taken = issue('Tool "refactor" is already registered: import it with Replace to update it.');
    expect(takenToolName(taken)).toBe('refactor');
    expect(appIssue(taken)).toEqual({ ...taken, message: 'A tool named "refactor" is already registered.' });
    expect(appIssue(taken).message).not.toMatch(/--|bindery /);
    // Reworded, it still names the tool (the Replace button reads it from there).
    expect(takenToolName(appIssue(taken))).toBe('refactor');
    expect(appIssue(appIssue(taken))).toEqual(appIssue(taken));
  });

  it('leaves other problems alone', () => {
    const other = issue('name must be kebab-case');
    expect(takenToolName(other)).toBeNull();
    expect(appIssue(other)).toBe(other);
  });
});
