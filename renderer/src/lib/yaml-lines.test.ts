import { describe, expect, it } from 'vitest';
import type { ToolFileIssue } from '../../../shared/dto.ts';
import { annotateLines, issuesFromDetails } from './yaml-lines.ts';

const issue = (line: number | null, message: string): ToolFileIssue => ({ file: 'tool.yaml', line, column: 1, field: 'f', message });

describe('annotateLines', () => {
  const text = 'name: t\nresource_slots:\n  - name: repo\n    resource_type: nope\n';

  it('numbers lines from 1 and drops the empty line after a final newline', () => {
    const { lines } = annotateLines(text, []);
    expect(lines.map((l) => l.number)).toEqual([1, 2, 3, 4]);
    expect(lines[3]?.text).toBe('    resource_type: nope');
  });

  it('puts each issue at its line', () => {
    const { lines, unlocated } = annotateLines(text, [issue(4, 'Unknown resource type'), issue(3, 'a'), issue(3, 'b')]);
    expect(lines[3]?.issues.map((i) => i.message)).toEqual(['Unknown resource type']);
    expect(lines[2]?.issues.map((i) => i.message)).toEqual(['a', 'b']);
    expect(unlocated).toEqual([]);
  });

  it('keeps issues without a line apart and clamps lines past the end', () => {
    const { lines, unlocated } = annotateLines(text, [issue(null, 'whole file'), issue(99, 'late')]);
    expect(unlocated.map((i) => i.message)).toEqual(['whole file']);
    expect(lines[3]?.issues.map((i) => i.message)).toEqual(['late']);
  });

  it('handles Windows line endings', () => {
    expect(annotateLines('a\r\nb\r\n', []).lines.map((l) => l.text)).toEqual(['a', 'b']);
  });
});

describe('issuesFromDetails', () => {
  it('reads the issues of a failed import and ignores anything else', () => {
    expect(issuesFromDetails({ file: 'x', issues: [issue(2, 'm'), { nope: true }] })).toHaveLength(1);
    expect(issuesFromDetails(null)).toEqual([]);
    expect(issuesFromDetails({ issues: 'no' })).toEqual([]);
  });
});
