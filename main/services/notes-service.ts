/**
 * Review notes (issue 23) as a service: a person's notes on a plan, a sandbox, a file or lines of
 * one side of a file's diff, stored with the text of those lines so a note whose lines the tool
 * rewrote shows as outdated. Open notes go to the tool on its next run (notes-handover.ts).
 */
import type { Database } from 'better-sqlite3';
import { monotonicFactory } from 'ulid';
import type { CommittedState, SandboxInfo } from '../../shared/dto.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { displayPath } from '../../shared/display-path.ts';
import { NOTE_BODY_MAX, type NoteSide, type NoteStatus, type ReviewNote } from '../../shared/review-dto.ts';
import * as notes from '../registry/notes.ts';
import type { StoredNote } from '../registry/notes.ts';
import type { Bindery } from './bindery.ts';
import { anchorOf, linesOf, readNoteSides, type NoteSides } from './notes-anchor.ts';
import type { PlanService } from './plan-service.ts';
import { pickSandbox } from './sandbox-ref.ts';

/** What a new note says and where it is anchored (references as every host takes them). */
export interface NewNote {
  plan: string;
  sandbox?: string;
  path?: string;
  side?: NoteSide;
  fromLine?: number;
  toLine?: number;
  body: string;
}

/** What the service is built from. */
export interface NotesServiceOptions {
  db: Database;
  plans: PlanService;
  /** A plan's sandboxes (SandboxManager.planSandboxes). */
  planSandboxes: (planId: string) => SandboxInfo[];
  /** The paths a sandbox's change list holds now (SandboxManager.changes, cached between looks). */
  changedPaths: (sandboxId: string) => Promise<ReadonlySet<string>>;
  /** What the sandbox's own commits left in its original (SandboxManager.ownCommits): the old side after a partial commit. */
  ownCommits?: (sandboxId: string) => ReadonlyMap<string, CommittedState>;
  tempDir: string;
  now?: () => Date;
}

// Sandboxes whose folder is there to read; notes on others keep their last word (not outdated).
const LIVE = new Set(['ready', 'committed']);
// Ids (on the clock of createdAt) increase even within one millisecond: notes added together list in the order they were added.
// Made on first use: making it loads Web Crypto, milliseconds that a command reading no notes need not pay.
let noteIds: ReturnType<typeof monotonicFactory> | undefined;
const noteId = (at: number): string => (noteIds ??= monotonicFactory())(at);

/** The notes service over one open core. */
export function notesService(bindery: Bindery): NotesService {
  return new NotesService({
    db: bindery.db,
    plans: bindery.plans,
    planSandboxes: (planId) => bindery.sandboxes.planSandboxes(planId),
    changedPaths: async (sandboxId) => new Set((await bindery.sandboxes.changes(sandboxId)).changes.map((c) => c.path)),
    ownCommits: (sandboxId) => bindery.sandboxes.ownCommits(sandboxId),
    tempDir: bindery.sandboxes.layout.tempDir,
  });
}

/** Adds, lists, edits, resolves and deletes review notes. */
export class NotesService {
  constructor(private readonly options: NotesServiceOptions) {}

  /** A plan's notes (or one sandbox's, or of one status), oldest first, each marked outdated when its lines changed. */
  async list(planRef: string, filter: { sandbox?: string; status?: NoteStatus } = {}): Promise<ReviewNote[]> {
    const plan = this.options.plans.findPlan(planRef);
    const sandboxes = this.options.planSandboxes(plan.id);
    const sandboxId = filter.sandbox === undefined ? undefined : pickSandbox(plan.id, sandboxes, filter.sandbox).id;
    return this.withOutdated(notes.planNotes(this.options.db, plan.id, { sandboxId, status: filter.status }), sandboxes);
  }

  /** Adds a note; a note on lines keeps their text as its anchor. */
  async add(input: NewNote): Promise<ReviewNote> {
    const plan = this.options.plans.findPlan(input.plan);
    const body = noteText(input.body);
    if (input.fromLine === undefined && input.toLine !== undefined) throw new ValidationError('A note on lines needs the line it starts at, not only the one it ends at.');
    if (input.path === undefined && input.side !== undefined) throw new ValidationError('A note on lines needs the file they are in.');
    if (input.path !== undefined && input.sandbox === undefined) throw new ValidationError('A note on a file needs its sandbox: name the resource.');
    if (input.path !== undefined && !isPlainRelative(input.path)) {
      throw new ValidationError(`"${input.path}" is not a path inside the sandbox: give it relative to the sandbox, like src/app.ts.`, { path: input.path });
    }
    const sandbox = input.sandbox === undefined ? null : pickSandbox(plan.id, this.options.planSandboxes(plan.id), input.sandbox);
    if (sandbox && !LIVE.has(sandbox.status)) {
      throw new ConflictError(`The sandbox of ${sandbox.resourceName} is ${sandbox.status}: notes go on sandboxes that are there to work in.`);
    }
    let anchorText: string | null = null;
    let toLine: number | null = null;
    if (sandbox && input.path !== undefined) {
      const changed = (await this.options.changedPaths(sandbox.id)).has(input.path);
      const sides = await readNoteSides(sandbox, input.path, this.options.tempDir, changed, this.options.ownCommits?.(sandbox.id));
      if (!sides) {
        throw new NotFoundError(`${displayPath(input.path)} is not a file of the sandbox of ${sandbox.resourceName}: pick a file from its changes, or one it holds.`, {
          path: input.path,
        });
      }
      if (input.side !== undefined && input.fromLine !== undefined) {
        toLine = input.toLine ?? input.fromLine;
        anchorText = anchorFor(sides, input.path, input.side, input.fromLine, toLine);
      }
    }
    const at = this.stamp();
    const stored: StoredNote = {
      id: noteId(Date.parse(at)),
      planId: plan.id,
      sandboxId: sandbox?.id ?? null,
      resourceName: sandbox?.resourceName ?? null,
      path: input.path ?? null,
      side: input.side ?? null,
      fromLine: input.fromLine ?? null,
      toLine,
      anchorText,
      body,
      status: 'open',
      createdAt: at,
      updatedAt: at,
      resolvedAt: null,
    };
    notes.insertNote(this.options.db, stored);
    return { ...stored, outdated: false };
  }

  /** Edits a note's text, or resolves or reopens it. */
  async update(noteRef: string, edit: { body?: string; status?: NoteStatus }): Promise<ReviewNote> {
    const note = this.find(noteRef);
    if (edit.body === undefined && edit.status === undefined) throw new ValidationError('Say what to change in the note: its text, or whether it is resolved.');
    const status = edit.status ?? note.status;
    const body = edit.body === undefined ? note.body : noteText(edit.body);
    const at = this.stamp();
    notes.saveNoteEdit(this.options.db, note.id, {
      body,
      status,
      updatedAt: at,
      resolvedAt: status === 'open' ? null : note.status === 'resolved' ? note.resolvedAt : at,
    });
    const [updated] = await this.withOutdated([notes.getNote(this.options.db, note.id) as StoredNote], this.options.planSandboxes(note.planId));
    return updated as ReviewNote;
  }

  /** Deletes a note; false when there is none by that reference. */
  remove(noteRef: string): boolean {
    try {
      return notes.deleteNote(this.options.db, this.find(noteRef).id);
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  /** A note by id, or by a unique start of its id (at least 4 characters). */
  find(noteRef: string): StoredNote {
    const { db } = this.options;
    const exact = notes.getNote(db, noteRef);
    if (exact) return exact;
    const matches = noteRef.length < 4 ? [] : notes.notesWithIdPrefix(db, noteRef.toUpperCase());
    if (matches.length === 1) return matches[0] as StoredNote;
    const why = matches.length > 1 ? `"${noteRef}" matches several review notes: give more of the id` : `There is no review note "${noteRef}"`;
    throw new NotFoundError(`${why}. See the plan's notes for their ids.`, { note: noteRef });
  }

  /**
   * Marks each line note outdated when its lines no longer hold its anchor text. Each file with
   * line notes is read once, whatever the number of notes on it, after one look at the change list
   * of each sandbox they are in (cached between looks); other notes cost nothing.
   */
  private async withOutdated(stored: StoredNote[], sandboxes: SandboxInfo[]): Promise<ReviewNote[]> {
    const live = new Map(sandboxes.filter((s) => LIVE.has(s.status)).map((s) => [s.id, s]));
    const lists = new Map<string, Promise<ReadonlySet<string>>>();
    const reads = new Map<string, Promise<NoteSides | null | undefined>>();
    const key = (note: StoredNote) => `${note.sandboxId}\0${note.path}`;
    const read = async (sandbox: SandboxInfo, rel: string) => {
      if (!lists.has(sandbox.id)) lists.set(sandbox.id, this.options.changedPaths(sandbox.id));
      const changed = await (lists.get(sandbox.id) as Promise<ReadonlySet<string>>);
      return readNoteSides(sandbox, rel, this.options.tempDir, changed.has(rel), this.options.ownCommits?.(sandbox.id));
    };
    for (const note of stored) {
      const sandbox = note.sandboxId === null ? undefined : live.get(note.sandboxId);
      if (note.side === null || note.path === null || !sandbox || reads.has(key(note))) continue;
      // A file that cannot be read now says nothing about the note (undefined): it is not marked.
      reads.set(key(note), read(sandbox, note.path).catch(() => undefined));
    }
    const sides = new Map(await Promise.all([...reads].map(async ([k, read]) => [k, await read] as const)));
    return stored.map((note) => {
      if (note.side === null || note.fromLine === null || note.toLine === null || !reads.has(key(note))) return { ...note, outdated: false };
      const now = sides.get(key(note));
      if (now === undefined) return { ...note, outdated: false };
      const text = now?.[note.side] ?? null;
      return { ...note, outdated: text === null || anchorOf(text, note.fromLine, note.toLine) !== note.anchorText };
    });
  }

  private stamp(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}

/** A note's text, trimmed; refused when empty or longer than a note keeps (the CLI does not pass the API's checks). */
function noteText(raw: string): string {
  const text = raw.trim();
  if (text === '') throw new ValidationError('The note is empty: write what should change.');
  if (text.length > NOTE_BODY_MAX) {
    throw new ValidationError(`The note has ${text.length} characters, more than the ${NOTE_BODY_MAX} a note holds: shorten it, or split it into several notes.`);
  }
  return text;
}

/** A relative path as change lists spell it: no leading slash, no `.` or `..` steps, no empty parts. */
function isPlainRelative(rel: string): boolean {
  return rel !== '' && !rel.includes('\0') && rel.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** The text of lines `from..to` of one side, refused with what to do when they are not there. */
function anchorFor(sides: NoteSides, rel: string, side: NoteSide, from: number, to: number): string {
  const name = side === 'old' ? 'original' : 'sandbox';
  const text = sides[side];
  if (text === null) {
    throw new ValidationError(`${displayPath(rel)} has no ${name} text to note lines on (it is missing on that side, binary or too large): leave the note on the whole file.`);
  }
  if (to < from) throw new ValidationError(`Lines ${from}-${to} end before they start: give the first line, then the last.`);
  const anchor = anchorOf(text, from, to);
  if (anchor === null) {
    const count = linesOf(text).length;
    throw new ValidationError(`${displayPath(rel)} has ${count} line(s) on the ${name} side, so lines ${from}-${to} are not there: pick lines the diff shows.`, {
      path: rel,
      side,
      lines: count,
    });
  }
  return anchor;
}
