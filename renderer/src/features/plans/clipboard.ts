/**
 * Copies text for "copy path": the async Clipboard API where the page may use it (Electron, and
 * localhost under `bindery serve`), else a hidden textarea and the copy command.
 */

/** Copies `text`; resolves false when neither way worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } finally {
      area.remove();
    }
  }
}
