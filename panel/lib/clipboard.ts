// Copying text from the panel. The async Clipboard API is the first choice, but a DevTools extension panel is an
// iframe inside DevTools whose permissions policy may not delegate `clipboard-write` to it (then writeText rejects,
// or it is missing in an insecure viewer page): there the copy falls back to a selected textarea and
// execCommand('copy'), which a click's user activation allows. Rejects when neither copied.

export async function copyText(text: string): Promise<void> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no async clipboard');
    await navigator.clipboard.writeText(text);
    return;
  } catch (err) {
    if (!copyBySelection(text)) throw err;
  }
}

function copyBySelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  // Off screen but laid out: a hidden or display:none element cannot be selected.
  area.style.cssText = 'position:fixed;top:0;left:-10000px;opacity:0';
  const active = document.activeElement as HTMLElement | null;
  document.body.appendChild(area);
  try {
    area.select();
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    active?.focus?.(); // keyboard shortcuts keep working where they did before the click
  }
}
