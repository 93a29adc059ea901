import { describe, expect, it } from 'vitest';
import { METHOD_NAMES, type ApiResult, type MethodName } from '../../../shared/contract.ts';
import { BinderyError, ConflictError, ValidationError } from '../../../shared/errors.ts';
import { createApi } from './client.ts';
import type { Transport } from './transport.ts';

function transportAnswering(answer: (method: MethodName, input: unknown) => ApiResult): Transport & { calls: Array<[MethodName, unknown]> } {
  const calls: Array<[MethodName, unknown]> = [];
  return {
    calls,
    call: async (method, input) => {
      calls.push([method, input]);
      return answer(method, input);
    },
    subscribe: () => () => undefined,
    host: { canPickFolder: false, canDropFolders: false, pickFolder: async () => null, pathForFile: () => null, openExternal: async () => false },
  };
}

describe('createApi', () => {
  it('has one function per contract method and sends {} when called without input', async () => {
    const transport = transportAnswering(() => ({ ok: true, value: [] }));
    const api = createApi(transport);
    expect(Object.keys(api).sort()).toEqual([...METHOD_NAMES].sort());
    await expect(api.listTypes()).resolves.toEqual([]);
    expect(transport.calls).toEqual([['listTypes', {}]]);
  });

  it('rebuilds typed errors from payloads', async () => {
    const api = createApi(transportAnswering(() => ({ ok: false, error: { code: 'conflict', message: 'taken', details: { name: 'x' } } })));
    const error = await api.addProject({ name: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).details).toEqual({ name: 'x' });
    const validation = createApi(transportAnswering(() => ({ ok: false, error: { code: 'validation_error', message: 'bad' } })));
    await expect(validation.showTool({ ref: 'x' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('turns an unreadable answer into an internal error that says what to do', async () => {
    const api = createApi(transportAnswering(() => 'nonsense' as unknown as ApiResult));
    const error = (await api.doctor().catch((e: unknown) => e)) as BinderyError;
    expect(error).toBeInstanceOf(BinderyError);
    expect(error.code).toBe('internal');
    expect(error.message).toMatch(/doctor/);
  });
});
