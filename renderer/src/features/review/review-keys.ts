/**
 * The review screen's keys, read in one place: what a key press asks for, and the list the "?"
 * help shows (so the help and the handler cannot disagree). Keys typed into a field, or already
 * taken by the file list or the diff (default prevented), are left alone.
 */
import type { ShortcutGroup } from '../../components/shortcuts-dialog.tsx';
import { TEXT_ENTRY } from '../../lib/text-entry.ts';

/** What a key asks the review for. */
export type ReviewKeyAction = 'next-file' | 'previous-file' | 'next-change' | 'previous-change' | 'commit' | 'help' | 'toggle-viewed';

const PLAIN: Record<string, ReviewKeyAction> = {
  j: 'next-file',
  k: 'previous-file',
  n: 'next-change',
  p: 'previous-change',
  v: 'toggle-viewed',
  '?': 'help',
};

/** The action of a key event, or null; `blocked` while a dialog is open over the screen. */
export function reviewKey(
  event: {
    key: string;
    altKey: boolean;
    ctrlKey: boolean;
    metaKey: boolean;
    defaultPrevented: boolean;
    target: EventTarget | null;
  },
  blocked: boolean,
): ReviewKeyAction | null {
  if (blocked || event.defaultPrevented) return null;
  const target = event.target as { closest?: (selector: string) => unknown } | null;
  if (target?.closest?.('dialog[open]')) return null;
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey) return 'commit';
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  if (target?.closest?.(TEXT_ENTRY)) return null;
  return PLAIN[event.key] ?? null;
}

/** The review's shortcuts for the help dialog; `mod` is "Ctrl" or "⌘". */
export function reviewShortcuts(mod: string): ShortcutGroup[] {
  return [
    {
      title: 'Files',
      shortcuts: [
        { keys: ['j', 'k'], action: 'Next or previous file' },
        { keys: ['↓', '↑'], action: 'Move in the file list (when it has focus)' },
        { keys: ['←', '→'], action: 'Fold or unfold a folder' },
        { keys: ['Space'], action: 'Include or leave out the file (or folder) in the commit' },
        { keys: ['v'], action: 'Mark the focused file viewed, or not viewed' },
        { keys: ['/'], action: 'Filter the files' },
        { keys: ['Esc'], action: 'Clear the filter, then go back to the list' },
      ],
    },
    {
      title: 'Diff',
      shortcuts: [
        { keys: ['n', 'p'], action: 'Next or previous change' },
        { keys: [`${mod}+F`], action: 'Find in the diff (when the diff has focus)' },
        { keys: ['Enter', 'Shift+Enter'], action: 'Next or previous match (in the find bar)' },
        { keys: ['w'], action: 'Hide or show whitespace changes (in the diff)' },
        { keys: ['e'], action: 'Show the whole file, or only the changes (in the diff)' },
      ],
    },
    {
      title: 'Commit in part',
      shortcuts: [
        { keys: ['Space'], action: 'Take or leave out the focused hunk or changed line (in the diff)' },
        { keys: ['↓', '↑'], action: 'Move between the hunk and line checkboxes' },
        { keys: ['Shift+click'], action: 'Take or leave out every changed line from the last one clicked' },
        { keys: ['Space'], action: 'On a partly taken file in the list: take the whole file again' },
      ],
    },
    {
      title: 'Notes',
      shortcuts: [
        { keys: ['c'], action: 'Add a note on the focused change (in the diff)' },
        { keys: ['Shift+click'], action: 'A note on several lines (or drag over the + buttons)' },
        { keys: [`${mod}+Enter`, 'Esc'], action: 'Save or cancel the note being written' },
      ],
    },
    {
      title: 'Review',
      shortcuts: [
        { keys: [`${mod}+Enter`], action: 'Commit the selected files (asks first)' },
        { keys: ['?'], action: 'Show these shortcuts' },
      ],
    },
  ];
}
