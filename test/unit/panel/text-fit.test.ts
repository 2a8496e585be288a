// The timeline's label column (panel/lib/text-fit.ts), measured here without a canvas (6.5 px per character): the
// browser's measured widths are checked by the viewer e2e spec.
import { describe, expect, it } from 'vitest';
import { fitText, labelColumn, textWidth } from '../../../panel/lib/text-fit.ts';

const FONT = '11px sans-serif';

describe('labelColumn', () => {
  it('keeps its least width when every label fits in it', () => {
    const c = labelColumn(['reply r1', 'text t1'], 1200, FONT, 170);
    expect(c.width).toBe(170);
    expect(c.texts).toEqual(['reply r1', 'text t1']);
  });

  it('grows to the longest label on a wide chart, so no label is cut', () => {
    const long = 'tool result call-plot · plot_csv_with_a_long_name'; // 50 characters, 325 px
    const c = labelColumn(['reply r1', long], 1400, FONT, 170);
    expect(c.width).toBeGreaterThan(170);
    expect(c.width).toBeLessThanOrEqual(1400 / 3);
    expect(c.texts[1]).toBe(long);
  });

  it('stops at a third of the chart and cuts a longer label with "…" to fit', () => {
    const long = 'x'.repeat(200);
    const c = labelColumn([long], 900, FONT, 170);
    expect(c.width).toBe(300);
    expect(c.texts[0].endsWith('…')).toBe(true);
    expect(textWidth(c.texts[0], FONT)).toBeLessThanOrEqual(c.width - 12);
    expect(textWidth(`${c.texts[0].slice(0, -1)}x…`, FONT)).toBeGreaterThan(c.width - 12); // the longest that fits
  });

  it('never goes below its least width on a narrow chart', () => {
    expect(labelColumn(['a'.repeat(100)], 300, FONT, 170).width).toBe(170);
  });
});

describe('fitText', () => {
  it('does not split a surrogate pair', () => {
    const s = `ab${'😀'.repeat(10)}`;
    const cut = fitText(s, textWidth('ab😀…', FONT) + 1, FONT);
    expect(cut).toBe('ab😀…');
    expect(/[\ud800-\udbff]…/.test(cut)).toBe(false); // no lone high surrogate before the …
  });

  it('gives "…" alone when not even one character fits', () => {
    expect(fitText('abcdef', 1, FONT)).toBe('…');
  });
});
