/**
 * Events main pushes to the renderer (DESIGN.md 3.2): registry changes (from this app or from the
 * CLI in another process), progress of long work, and sandbox changes. Declared once, like methods.
 */
import { z } from 'zod';
import { RUN_STATUSES } from './dto.ts';

/** The registry areas a change can touch. */
export const REGISTRY_AREAS = ['types', 'resources', 'projects', 'tools', 'notes'] as const;

/** Commands the Electron menu sends to the renderer (the web host has no menu). */
export const MENU_COMMANDS = [
  'register-folder',
  'import-tool',
  'new-project',
  'show-types',
  'show-resources',
  'show-projects',
  'show-tools',
  'refresh',
  'focus-search',
  'doctor',
  'about',
] as const;

/** One menu command. */
export type MenuCommand = (typeof MENU_COMMANDS)[number];

/** Every event and the schema of its payload. */
export const events = {
  /** Part of the registry changed; `external` means another process (e.g. the CLI) wrote it. */
  registryChanged: z.strictObject({
    areas: z.array(z.enum(REGISTRY_AREAS)),
    source: z.enum(['app', 'external']),
  }),
  /** Progress of a long operation; `total` is null when unknown. */
  progress: z.strictObject({
    operationId: z.string(),
    label: z.string(),
    done: z.number(),
    total: z.number().nullable(),
    finished: z.boolean(),
  }),
  /**
   * The files or state of a plan's sandbox changed; `version` (when known) is the sandbox's new
   * change-list version, so a client already holding it asks nothing.
   */
  sandboxChanged: z.strictObject({
    planId: z.string(),
    sandboxId: z.string().nullable(),
    reason: z.string(),
    version: z.string().optional(),
  }),
  /** The user chose a menu item or its shortcut; the renderer performs it. */
  menuCommand: z.strictObject({ command: z.enum(MENU_COMMANDS) }),

  // Plans and sandboxes (issue 6): a tool run's output and state, pushed as they happen.
  /** A chunk of a tool run's output; `seq` numbers chunks so a client can fetch what it missed. */
  runOutput: z.strictObject({
    runId: z.string(),
    planId: z.string(),
    seq: z.number(),
    stream: z.enum(['stdout', 'stderr']),
    text: z.string(),
  }),
  /** A tool run started or ended (status running, exited, failed, stopped or timed_out). */
  runChanged: z.strictObject({
    runId: z.string(),
    planId: z.string(),
    status: z.enum(RUN_STATUSES),
  }),
} as const;

/** Every event name. */
export type EventName = keyof typeof events;

/** Event names in declaration order. */
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** The payload of one event. */
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

/** A function that receives one kind of event. */
export type EventHandler<E extends EventName> = (payload: EventPayload<E>) => void;

/** An event on the wire (SSE data, IPC message): name and payload together. */
export type EventMessage = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];

/** True when `name` is a declared event. */
export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}
