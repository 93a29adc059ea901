/**
 * Where a typed letter is text rather than a shortcut: text fields, selects and editable content.
 * Checkboxes, radios and buttons are not: a click on a file's checkbox must not turn j/k off.
 */

const NOT_TEXT = ['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image'];

/** A selector for the elements that take typed text (for `closest`, so a key inside one is left alone). */
export const TEXT_ENTRY = [
  `input${NOT_TEXT.map((type) => `:not([type="${type}"])`).join('')}`,
  'textarea',
  'select',
  '[contenteditable]:not([contenteditable="false"])',
].join(', ');
