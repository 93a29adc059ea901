import { describe, expect, it } from 'vitest';
import type { FolderInspection } from '../../../shared/dto.ts';
import { describeFolder, folderName, initialRegisterForm, registerReducer } from './register-form.ts';

const gitRoot: FolderInspection = {
  path: '/src/api',
  exists: true,
  isDirectory: true,
  gitRoot: '/src/api',
  suggestedType: 'git-checkout',
  suggestedName: 'local/api',
};

describe('registerReducer', () => {
  it('fills name and type from the folder check', () => {
    const form = registerReducer(initialRegisterForm('/src/api'), { kind: 'inspected', inspection: gitRoot });
    expect(form.name).toBe('local/api');
    expect(form.typeName).toBe('git-checkout');
  });

  it('never overwrites what the user typed or picked', () => {
    let form = initialRegisterForm('/src/api');
    form = registerReducer(form, { kind: 'name', value: 'team/api' });
    form = registerReducer(form, { kind: 'type', value: 'fs-directory' });
    form = registerReducer(form, { kind: 'inspected', inspection: gitRoot });
    expect(form.name).toBe('team/api');
    expect(form.typeName).toBe('fs-directory');
  });

  it('follows suggestions again once the name is cleared', () => {
    let form = registerReducer(initialRegisterForm(), { kind: 'name', value: 'x/y' });
    form = registerReducer(form, { kind: 'name', value: '' });
    form = registerReducer(form, { kind: 'inspected', inspection: gitRoot });
    expect(form.name).toBe('local/api');
  });

  it('forgets the check when the location changes', () => {
    const form = registerReducer(registerReducer(initialRegisterForm('/a'), { kind: 'inspected', inspection: gitRoot }), { kind: 'location', value: '/b' });
    expect(form.inspection).toBeNull();
  });
});

describe('describeFolder', () => {
  it('explains each kind of folder', () => {
    expect(describeFolder(gitRoot)?.tone).toBe('ok');
    expect(describeFolder({ ...gitRoot, path: '/src/api/docs' })?.text).toContain('not at its root');
    expect(describeFolder({ ...gitRoot, exists: false })?.tone).toBe('bad');
    expect(describeFolder({ ...gitRoot, isDirectory: false })?.text).toContain('file');
    expect(describeFolder({ ...gitRoot, gitRoot: null })?.text).toContain('fs-directory');
    expect(describeFolder(null)).toBeNull();
  });
});

describe('folderName', () => {
  it('takes the last segment, ignoring trailing separators', () => {
    expect(folderName('/home/dev/my-app/')).toBe('my-app');
    expect(folderName('C:\\work\\site')).toBe('site');
  });
});
