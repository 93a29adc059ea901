import { describe, expect, it } from 'vitest';
import { latestLoader, type Loadable } from './loadable.ts';

describe('latestLoader', () => {
  it('keeps the newest answer when an older one arrives late', async () => {
    const state: Partial<Loadable<string>> = {};
    const answers: Array<(items: string[]) => void> = [];
    const load = latestLoader(() => new Promise<string[]>((resolve) => answers.push(resolve)), (patch) => Object.assign(state, patch));
    const first = load();
    const second = load();
    answers[1]?.(['new']);
    await second;
    answers[0]?.(['old']);
    await first;
    expect(state).toMatchObject({ items: ['new'], status: 'ready', error: null });
  });

  it('keeps the last good list and records the error when a refresh fails', async () => {
    const state: Partial<Loadable<string>> = { items: ['kept'] };
    const failure = new Error('io');
    await latestLoader(() => Promise.reject(failure), (patch) => Object.assign(state, patch))();
    expect(state).toMatchObject({ items: ['kept'], status: 'error', error: failure });
  });
});
