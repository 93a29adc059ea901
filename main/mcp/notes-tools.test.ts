/**
 * answer_note's refusals (notes-tools.ts), over the real API: a note of another plan is not found
 * through this one, and a reply that would pass the length a note holds is refused with the room
 * left, the person's note unchanged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOTE_BODY_MAX } from '../../shared/review-dto.ts';
import { AgentService } from '../services/agent-service.ts';
import { apiHarness, toolYaml, type ApiHarness } from '../testing/api-harness.ts';
import { noteTools } from './notes-tools.ts';

let api: ApiHarness;
beforeEach(async () => {
  api = await apiHarness({ tools: [toolYaml('fixer')] });
});
afterEach(() => api.close());

function answerNote() {
  const tools = noteTools({ dispatch: api.dispatch, agent: new AgentService(api.bindery) });
  const tool = tools.find((t) => t.name === 'answer_note')!;
  return (input: Record<string, unknown>) => tool.run(tool.input.parse(input));
}

describe('answer_note', () => {
  it("refuses a note of another plan, and a reply the note has no room for, saying what to do", async () => {
    const [one, other] = [await api.readyPlan('fixer'), await api.readyPlan('fixer')];
    const elsewhere = await api.call('addNote', { plan: other.planId, body: 'on the other plan' });
    const answer = answerNote();
    await expect(answer({ plan: one.planId, note: elsewhere.id, reply: 'done' })).rejects.toThrow(`Plan ${one.planId} has no review note "${elsewhere.id}"`);

    const long = await api.call('addNote', { plan: one.planId, body: 'n'.repeat(NOTE_BODY_MAX - 100) });
    await expect(answer({ plan: one.planId, note: long.id, reply: 'r'.repeat(200) })).rejects.toThrow(/has room for a reply of \d+ characters: shorten yours/);
    const full = await api.call('addNote', { plan: one.planId, body: 'n'.repeat(NOTE_BODY_MAX) });
    await expect(answer({ plan: one.planId, note: full.id, reply: 'done' })).rejects.toThrow(/no room for a reply/);
    const notes = await api.call('listNotes', { plan: one.planId });
    expect(notes.map((n) => [n.body.length, n.status])).toEqual([[NOTE_BODY_MAX - 100, 'open'], [NOTE_BODY_MAX, 'open']]);
    expect(await answer({ plan: one.planId, note: long.id, reply: 'r'.repeat(20) })).toMatchObject({ status: 'resolved' });
  });
});
