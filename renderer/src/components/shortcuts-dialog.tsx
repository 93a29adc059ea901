/**
 * The keyboard help a screen opens on "?": its shortcuts in groups, each key drawn as a key cap.
 * A screen passes its own list, so the help never promises a key the screen does not take.
 */
import type { ReactElement } from 'react';
import { Dialog } from './dialog.tsx';

/** One shortcut: the keys (alternatives, e.g. ["j", "↓"]) and what they do. */
export interface Shortcut {
  keys: string[];
  action: string;
}

/** A titled group of shortcuts. */
export interface ShortcutGroup {
  title: string;
  shortcuts: Shortcut[];
}

/** The modifier key of this platform for shortcuts such as Ctrl/Cmd+Enter. */
export function commandKey(): string {
  const platform = typeof navigator === 'undefined' ? '' : navigator.platform;
  return /Mac|iPhone|iPad/.test(platform) ? '⌘' : 'Ctrl';
}

/** The help dialog. */
export function ShortcutsDialog({ groups, onClose }: { groups: ShortcutGroup[]; onClose(): void }): ReactElement {
  return (
    <Dialog
      title="Keyboard shortcuts"
      onClose={onClose}
      closeLabel="Close"
    >
      <div className="shortcut-groups">
        {groups.map((group) => (
          <section key={group.title} className="shortcut-group" aria-label={group.title}>
            <h3 className="shortcut-group-title">{group.title}</h3>
            <dl className="shortcut-list">
              {group.shortcuts.map((shortcut) => (
                <div key={shortcut.action} className="shortcut-item">
                  <dt>
                    {shortcut.keys.map((key, index) => (
                      <span key={key}>
                        {index > 0 && <span className="shortcut-or"> / </span>}
                        {key.split('+').map((part, i) => (
                          <span key={part}>
                            {i > 0 && '+'}
                            <kbd className="key-cap">{part}</kbd>
                          </span>
                        ))}
                      </span>
                    ))}
                  </dt>
                  <dd>{shortcut.action}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
