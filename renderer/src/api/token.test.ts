import { describe, expect, it } from 'vitest';
import { takeToken } from './token.ts';

function environment(href: string, stored: Record<string, string> = {}) {
  const store = new Map(Object.entries(stored));
  const replaced: string[] = [];
  return {
    env: {
      href,
      storage: { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) },
      replaceUrl: (url: string) => void replaced.push(url),
    },
    store,
    replaced,
  };
}

describe('takeToken', () => {
  it('takes the token from the URL, stores it and hides it from the address bar', () => {
    const { env, store, replaced } = environment('http://127.0.0.1:5000/?token=abc&x=1#/tools');
    expect(takeToken(env)).toBe('abc');
    expect([...store.values()]).toEqual(['abc']);
    expect(replaced).toEqual(['/?x=1#/tools']);
  });

  it('falls back to session storage after a reload', () => {
    const { env, replaced } = environment('http://127.0.0.1:5000/', { 'bindery.token': 'kept' });
    expect(takeToken(env)).toBe('kept');
    expect(replaced).toEqual([]);
  });

  it('returns null when there is none', () => {
    expect(takeToken(environment('http://127.0.0.1:5000/').env)).toBeNull();
  });
});
