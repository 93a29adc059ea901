import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { contract, isMethodName, METHOD_NAMES, type BinderyApi, type MethodArgs } from './contract.ts';
import { EVENT_NAMES, events, isEventName } from './events.ts';
import { methodChannel, subscriberName } from './bridge.ts';

describe('API surface', () => {
  it('matches the reviewed snapshot (method names, descriptions, input JSON schemas, events)', () => {
    const surface = {
      methods: Object.fromEntries(
        METHOD_NAMES.map((name) => [
          name,
          {
            description: contract[name].description,
            input: z.toJSONSchema(contract[name].input, { io: 'input' }),
          },
        ]),
      ),
      events: Object.fromEntries(EVENT_NAMES.map((name) => [name, z.toJSONSchema(events[name])])),
    };
    expect(surface).toMatchSnapshot();
  });

  it('derives unique channels and subscriber names', () => {
    expect(new Set(METHOD_NAMES.map(methodChannel)).size).toBe(METHOD_NAMES.length);
    expect(EVENT_NAMES.map(subscriberName)).toEqual([
      'onRegistryChanged',
      'onProgress',
      'onSandboxChanged',
      'onMenuCommand',
      'onRunOutput',
      'onRunChanged',
    ]);
  });

  it('recognises only declared names, not inherited properties', () => {
    expect(isMethodName('listTypes')).toBe(true);
    expect(isMethodName('toString')).toBe(false);
    expect(isMethodName('__proto__')).toBe(false);
    expect(isEventName('registryChanged')).toBe(true);
    expect(isEventName('constructor')).toBe(false);
  });

  it('refuses unknown fields and wrong types on every method', () => {
    for (const name of METHOD_NAMES) {
      expect(contract[name].input.safeParse({ unexpected: 1 }).success, name).toBe(false);
      expect(contract[name].input.safeParse('text').success, name).toBe(false);
      expect(contract[name].input.safeParse(null).success, name).toBe(false);
    }
  });

  it('makes the input optional only where every field is', () => {
    expectTypeOf<MethodArgs<'listTypes'>['length']>().toEqualTypeOf<0 | 1>();
    expectTypeOf<MethodArgs<'resourceStatuses'>['length']>().toEqualTypeOf<0 | 1>();
    expectTypeOf<Parameters<BinderyApi['showResource']>>().toEqualTypeOf<[input: { ref: string }]>();
    expectTypeOf<ReturnType<BinderyApi['listTools']>>().resolves.toBeArray();
  });
});
