import { describe, expect, it } from 'vitest';
import { BinderyError, ConflictError, NotFoundError, ValidationError } from '../../../shared/errors.ts';
import { HttpTransport } from '../api/http-transport.ts';
import { besideConnectionBar, errorField, errorMessage, formErrors } from './errors.ts';

const FIELDS = ['name', 'location', 'sandboxStrategy'] as const;

describe('errorField', () => {
  it('reads details.field and converts the file spelling', () => {
    expect(errorField(new ValidationError('bad', { field: 'location' }))).toBe('location');
    expect(errorField(new ValidationError('bad', { field: 'sandbox_strategy' }))).toBe('sandboxStrategy');
    expect(errorField(new ValidationError('bad'))).toBeNull();
    expect(errorField(new Error('plain'))).toBeNull();
  });
});

describe('formErrors', () => {
  it('puts a field error at its field and nowhere else', () => {
    const errors = formErrors(new ValidationError('Location /x does not exist', { field: 'location' }), FIELDS);
    expect(errors.at('location')).toBe('Location /x does not exist');
    expect(errors.at('name')).toBeNull();
    expect(errors.general).toBeNull();
  });

  it('gives a conflict without a field to the field that claims conflicts', () => {
    const conflict = new ConflictError('A resource named "local/a" already exists');
    expect(formErrors(conflict, FIELDS, 'name').at('name')).toContain('already exists');
    expect(formErrors(conflict, FIELDS).general).toBe(conflict);
  });

  it('leaves errors about unknown fields and other errors for the form foot', () => {
    const other = new NotFoundError('There is no resource type "x"');
    expect(formErrors(other, FIELDS, 'name').general).toBe(other);
    expect(formErrors(new ValidationError('odd', { field: 'colour' }), FIELDS).general).toBeInstanceOf(ValidationError);
    expect(formErrors(null, FIELDS).general).toBeNull();
  });
});

describe('errorMessage', () => {
  it('prefers the error message and explains a missing one', () => {
    expect(errorMessage(new Error('why'))).toBe('why');
    expect(errorMessage('text')).toBe('text');
    expect(errorMessage(undefined)).toContain('restart Bindery');
    expect(errorMessage(undefined)).not.toMatch(/bindery |--/);
  });
});

describe('besideConnectionBar', () => {
  it('leaves "not reachable" to the connection bar while it is up, and nothing else', async () => {
    const down = new HttpTransport({ baseUrl: 'http://127.0.0.1:9/', token: null, fetch: (async () => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch });
    const unreachable = await down.call('listTypes', {}).then(() => null, (error: unknown) => error);
    expect(unreachable).toBeInstanceOf(BinderyError);
    expect(besideConnectionBar(unreachable, false)).toBeNull();
    // Connected (a call lost while the stream stayed up): the bar is not there, so the page says it.
    expect(besideConnectionBar(unreachable, true)).toBe(unreachable);
    // The core's own io_error (a disk failure, say) is shown whatever the connection.
    const disk = new BinderyError('io_error', 'Could not write the file: the disk is full.');
    expect(besideConnectionBar(disk, false)).toBe(disk);
    expect(besideConnectionBar(null, false)).toBeNull();
  });
});
