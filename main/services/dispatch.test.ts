import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../shared/contract.ts';
import { freshBindery } from '../testing/registry.ts';
import { createApi } from './api.ts';
import type { Bindery } from './bindery.ts';
import { createDispatcher, toErrorPayload } from './dispatch.ts';

let bindery: Bindery;
beforeEach(() => {
  bindery = freshBindery();
});
afterEach(() => bindery.close());

const dispatcher = (report: (method: string, error: unknown) => void = () => undefined) =>
  createDispatcher(createApi({ bindery, host: 'web' }), report);

describe('createDispatcher', () => {
  it('refuses unknown methods, including inherited property names', async () => {
    const dispatch = dispatcher();
    for (const name of ['nope', 'toString', '__proto__', 'constructor', '']) {
      const result = await dispatch(name, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'not_found' } });
    }
  });

  it('validates input at the boundary on every method: wrong shapes never reach the services', async () => {
    const dispatch = dispatcher();
    for (const method of METHOD_NAMES) {
      for (const bad of [null, 42, 'text', [], { unexpected: true }]) {
        const result = await dispatch(method, bad);
        expect(result.ok, `${method} ${JSON.stringify(bad)}`).toBe(false);
        if (!result.ok) expect(result.error.code).toBe('validation_error');
      }
    }
  });

  it('names each invalid field and what is wrong with it', async () => {
    const result = await dispatcher()('addResource', { name: 'local/x', typeName: '', location: 7 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toMatch(/^Invalid input for addResource: /);
    expect(result.error.details).toMatchObject({ issues: [{ field: 'typeName' }, { field: 'location' }] });
  });

  it('returns typed errors from the services as payloads', async () => {
    const result = await dispatcher()('showResource', { ref: 'local/missing' });
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ code: 'not_found', message: expect.stringMatching(/local\/missing/) }) });
  });

  it('reports unexpected failures to the host and hides their stack from the caller', async () => {
    const reported: string[] = [];
    const dispatch = dispatcher((method) => reported.push(method));
    bindery.close();
    const result = await dispatch('listTypes', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringMatching(/Unexpected failure: .*Restart Bindery/) } });
    expect((result as { error: { message: string } }).error.message).not.toMatch(/bindery |--/);
    expect(reported).toEqual(['listTypes']);
    bindery = freshBindery();
  });

  it('maps non-Error throws too', () => {
    expect(toErrorPayload('boom')).toMatchObject({ code: 'internal', message: expect.stringMatching(/boom/) });
  });
});
