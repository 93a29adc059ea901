import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors.ts';
import { formatToolFile, parseToolFile } from './tool-file.ts';

function issuesOf(text: string, file = 'tool.yaml') {
  try {
    parseToolFile(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details as { issues: Array<{ line: number | null; field: string; message: string }> };
  }
  throw new Error('expected a ValidationError');
}

describe('parseToolFile', () => {
  it('reads a single tool with defaults', () => {
    const [tool] = parseToolFile('name: lint\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n', 'x.yaml');
    expect(tool?.definition).toEqual({
      name: 'lint',
      description: '',
      run: null,
      resourceSlots: [{ name: 'repo', resourceType: 'git-checkout', access: 'read_only', binding: 'contextual', staticResource: null, required: true }],
    });
  });

  it('names a nameless single tool after its file, so reference fragments import as written', () => {
    const [tool] = parseToolFile('resource_slots:\n  - name: repo\n    resource_type: git-checkout\n', '/some/dir/contextual.yaml');
    expect(tool?.definition.name).toBe('contextual');
  });

  it('reads a list under tools:', () => {
    const text = 'tools:\n  - name: a\n  - name: b\n    run: make\n';
    expect(parseToolFile(text, 'x.yaml').map((t) => t.definition.name)).toEqual(['a', 'b']);
  });

  it('reads JSON', () => {
    const text = JSON.stringify({ name: 'j', resource_slots: [{ name: 'out', resource_type: 'fs-directory', access: 'write_only', binding: 'parameter' }] });
    expect(parseToolFile(text, 'j.json')[0]?.definition.resourceSlots[0]?.binding).toBe('parameter');
  });

  it('reports YAML syntax errors with their line', () => {
    const { issues } = issuesOf('name: a\nresource_slots:\n  - name: [oops\n');
    expect(issues[0]?.line).toBeGreaterThanOrEqual(3);
  });

  it('reports every field problem with file, line and field', () => {
    const text = [
      'name: bad',
      'resource_slots:',
      '  - name: repo',
      '    resource_type: git-checkout',
      '    access: write_everything',
      '  - name: cfg',
      '    resource_type: fs-directory',
      '    binding: static',
      '  - name: repo',
      '    resource_type: fs-directory',
      '    colour: red',
    ].join('\n');
    let message = '';
    try {
      parseToolFile(text, 'bad.yaml');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('bad.yaml:5 resource_slots.0.access: access must be one of read_only, read_write, write_only');
    expect(message).toMatch(/bad\.yaml:11 .*Unknown field "colour"/);
  });

  it('requires static_resource on static slots and refuses it elsewhere', () => {
    const text = 'name: t\nresource_slots:\n  - name: cfg\n    resource_type: fs-directory\n    binding: static\n  - name: x\n    resource_type: fs-directory\n    static_resource: local/a\n';
    const { issues } = issuesOf(text);
    expect(issues.map((i) => [i.line, i.field])).toEqual([
      [3, 'resource_slots.0.static_resource'],
      [8, 'resource_slots.1.static_resource'],
    ]);
  });

  it('refuses duplicate slot names and duplicate keys', () => {
    const dupSlots = 'name: t\nresource_slots:\n  - name: a\n    resource_type: x\n  - name: a\n    resource_type: x\n';
    expect(issuesOf(dupSlots).issues[0]?.message).toMatch(/used twice/);
    expect(issuesOf('name: a\nname: b\n').issues[0]?.message).toMatch(/unique|duplicate/i);
  });

  it('refuses an empty file and a nameless tool read from stdin', () => {
    expect(issuesOf('').issues[0]?.message).toMatch(/empty/);
    expect(issuesOf('resource_slots: []\n', '<stdin>').issues[0]?.message).toMatch(/needs a name/);
  });

  it('round-trips through formatToolFile', () => {
    const text = 'name: mixed\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n    binding: contextual\n  - name: config\n    resource_type: fs-directory\n    access: read_only\n    binding: static\n    static_resource: local/shared-config\n  - name: output\n    resource_type: fs-directory\n    access: write_only\n    binding: parameter\n    required: false\nrun: make\n';
    const first = parseToolFile(text, 'a.yaml').map((t) => t.definition);
    const again = parseToolFile(formatToolFile(first), 'b.yaml').map((t) => t.definition);
    expect(again).toEqual(first);
    expect(formatToolFile(first)).toBe(text);
  });
});
