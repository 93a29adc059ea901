/**
 * The review-note tools of `bindery mcp` (issue 23): an agent reads the notes the person left on
 * its plan and answers one, its reply appended to the note, which it resolves unless told not to.
 * Neither writes to an original, so neither is gated like commit.
 */
import { z } from 'zod';
import { contract, type MethodName } from '../../shared/contract.ts';
import { NotFoundError, ValidationError } from '../../shared/errors.ts';
import { NOTE_BODY_MAX, type ReviewNote } from '../../shared/review-dto.ts';
import { unwrap } from './results.ts';
import type { McpTool, ToolDeps } from './tools.ts';

const project = z.string().trim().min(1).optional().describe('The project the plan must belong to (refused otherwise).');

/** The reply as it is kept, under the person's note. */
export function withReply(body: string, reply: string): string {
  return `${body}\n\nReply from the agent: ${reply.trim()}`;
}

/** list_notes and answer_note. */
export function noteTools({ dispatch, agent }: Pick<ToolDeps, 'dispatch' | 'agent'>): McpTool[] {
  const call = async <T>(method: MethodName, input: Record<string, unknown>): Promise<T> => unwrap<T>(await dispatch(method, input));
  return [
    {
      name: 'list_notes',
      title: 'List review notes',
      description:
        "The person's review notes on a plan, oldest first: open ones unless status says otherwise. Each says where it applies (resource_name, path, side 'old' for the original or 'new' for the sandbox, from_line-to_line), the anchor_text it was written on, and outdated when those lines have changed since.",
      input: contract.listNotes.input.extend({ project }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      run: (input) => {
        const { project: scope, ...rest } = input as { plan: string; project?: string; status?: string };
        agent.plan(rest.plan, scope);
        return call('listNotes', { ...rest, status: rest.status ?? 'open' });
      },
    },
    {
      name: 'answer_note',
      title: 'Answer a review note',
      description:
        'Answers one review note of the plan: your reply is appended to the note and the note is resolved (resolve: false keeps it open, for a question back). Do the work in the sandbox first.',
      input: z.strictObject({
        plan: z.string().trim().min(1).describe('The plan the note belongs to.'),
        note: z.string().trim().min(1).describe('The note id, as list_notes gives it.'),
        reply: z.string().trim().min(1, 'is empty: say what you did').max(10_000).describe('What you did about it, or what you need to know.'),
        resolve: z.boolean().optional().describe('Resolve the note (default true).'),
        project,
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      run: async (input) => {
        const { plan, note: ref, reply, resolve, project: scope } = input as { plan: string; note: string; reply: string; resolve?: boolean; project?: string };
        const planId = agent.plan(plan, scope).id;
        const notes = await call<ReviewNote[]>('listNotes', { plan: planId });
        const note = notes.find((n) => n.id === ref.toUpperCase());
        if (!note) throw new NotFoundError(`Plan ${planId} has no review note "${ref}": use an id list_notes gives.`, { plan: planId, note: ref });
        const body = withReply(note.body, reply);
        if (body.length > NOTE_BODY_MAX) {
          // The person's text is never cut: the reply must fit in what is left (updateNote would only say "body too big").
          const room = NOTE_BODY_MAX - withReply(note.body, '').length;
          throw new ValidationError(
            room > 0
              ? `Note ${note.id} has room for a reply of ${room} characters: shorten yours, and leave the detail in the sandbox's files.`
              : `Note ${note.id} is as long as a note can be, with no room for a reply: do the work, then tell the person with ready_for_review.`,
            { note: note.id, room: Math.max(0, room) },
          );
        }
        return call('updateNote', { id: note.id, body, ...(resolve === false ? {} : { status: 'resolved' }) });
      },
    },
  ];
}
