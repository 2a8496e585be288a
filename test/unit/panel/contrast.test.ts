// Text contrast of both themes, from the colours styles.css defines: the text colours on the backgrounds they are
// shown on meet WCAG AA (4.5:1) — a review measured selected rows' error/warn/dim text at 3.7–4.0 and heartbeat rows
// at 2.5. Placeholders ("(empty)") and disabled buttons are meant to recede: 3:1 (a disabled control is exempt from the
// 4.5:1); dimmed event rows recede by italics, their text at 4.5:1 (axe measured heartbeat rows at ~4:1 on alternate rows).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const css = readFileSync(path.resolve(import.meta.dirname, '../../../panel/styles.css'), 'utf8');

function theme(selector: string): Record<string, string> {
  const at = css.indexOf(`${selector} {`);
  const block = css.slice(at, css.indexOf('}', at));
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1], m[2]]));
}

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const TEXT_ON: [text: string, backgrounds: string[]][] = [
  ['fg', ['bg', 'bg-alt', 'bg-toolbar', 'bg-selected', 'bg-hover']],
  ['fg-dim', ['bg', 'bg-alt', 'bg-toolbar', 'bg-selected']],
  ['error', ['bg', 'bg-toolbar', 'bg-selected', 'error-bg']],
  ['warn', ['bg', 'bg-toolbar', 'bg-selected', 'warn-bg']],
  ['ok', ['bg', 'bg-selected']],
  ['accent', ['bg', 'bg-toolbar']],
  ['mark-fg', ['mark']],
];

describe.each([
  ['light', ':root'],
  ['dark', ":root[data-theme='dark']"],
])('the %s theme', (_name, selector) => {
  const t = theme(selector);

  it.each(TEXT_ON)('%s text reads at 4.5:1 on the backgrounds it is shown on', (text, backgrounds) => {
    for (const bg of backgrounds) {
      expect(t[text], `--${text}`).toBeDefined();
      expect(t[bg], `--${bg}`).toBeDefined();
      expect(contrast(t[text], t[bg]), `--${text} on --${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('dimmed event rows (heartbeats, sent and other messages) are text like any other: 4.5:1 on every row background', () => {
    const colour = css.match(/\.vrow\.heartbeat \{[^}]*color: var\(--([\w-]+)\)/)?.[1];
    expect(colour).toBeDefined();
    for (const bg of ['bg', 'bg-alt', 'bg-selected']) expect(contrast(t[colour!], t[bg]), `--${colour} on --${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  it('dimmed text (placeholders, disabled buttons) still reads at 3:1', () => {
    for (const bg of ['bg', 'bg-alt', 'bg-selected']) expect(contrast(t['fg-faint'], t[bg]), `--fg-faint on --${bg}`).toBeGreaterThanOrEqual(3);
  });
});
