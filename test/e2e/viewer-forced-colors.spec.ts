// Forced colours (Windows High Contrast; emulated: Chromium then really replaces the page's colours) in the standalone
// viewer with the sample capture, both palettes and both panel themes — inside DevTools the theme follows DevTools, not
// the palette, so a dark theme on a white Canvas is a real case. What the panel tells by colour is read back from
// computed styles against the palette's system colours: each list's selected row, the selected tab, focus on a pane
// divider, a switched-on and an unavailable button, the block the step touched, an event kind's swatch, and the timeline's lanes, marks,
// waits, selected reply and the scrubber's position (SVG fill and stroke are not forced: the chart sets them itself).
// Soft assertions: a run reports every property that is wrong, not the first.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { sampleCapture } from '../../panel/dev/sample-capture.ts';
import { writeCaptureLog } from '../../panel/core-bridge.ts';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('viewer-forced-colors');
const sampleLog = writeCaptureLog(sampleCapture());

type System = Record<'Canvas' | 'CanvasText' | 'Highlight' | 'HighlightText' | 'GrayText', string>;

/** The palette's system colours as computed colours (what getComputedStyle reports for a property set to them). */
function systemColors(page: Page): Promise<System> {
  return page.evaluate(() => {
    const probe = document.body.appendChild(document.createElement('i'));
    const read = (name: string) => ((probe.style.color = name), getComputedStyle(probe).color);
    const out = { Canvas: read('Canvas'), CanvasText: read('CanvasText'), Highlight: read('Highlight'), HighlightText: read('HighlightText'), GrayText: read('GrayText') };
    probe.remove();
    return out;
  });
}

/** Computed style properties of the first element a locator finds. */
const styleOf = (loc: Locator, ...props: string[]) =>
  loc.first().evaluate((el, ps) => Object.fromEntries(ps.map((p) => [p, getComputedStyle(el).getPropertyValue(p)])), props);

for (const scheme of ['light', 'dark'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`forced colours, ${scheme} palette, ${theme} panel theme: selection, tabs, focus, states and the timeline are told in system colours`, async () => {
      const page = await viewer.browser.newPage({ viewport: { width: 1400, height: 860 } });
      await page.emulateMedia({ forcedColors: 'active', colorScheme: scheme });
      await page.goto(`${viewer.url}/index.html?theme=${theme}`);
      await page.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) });
      await expect(page.getByTestId('status')).toContainText('Imported sample.replyscope.ndjson');
      const sys = await systemColors(page);
      expect(sys.Highlight).not.toBe(sys.Canvas);

      // The selected row of each list stands out from the others, its text in HighlightText with no Canvas plate
      // behind it (forced-color-adjust: none — with the plate, HighlightText stood on Canvas).
      await page.locator('[data-conn="tab1:1"]').click();
      await page.locator('[data-reply]').first().click();
      await page.locator('[data-event]').nth(8).click();
      const selected = { background: sys.Highlight, color: sys.HighlightText, plate: 'none' };
      const rowStyle = async (cell: Locator) => {
        const s = await styleOf(cell, 'background-color', 'color', 'forced-color-adjust');
        return { background: s['background-color'], color: s.color, plate: s['forced-color-adjust'] };
      };
      expect.soft(await rowStyle(page.locator('[data-conn="tab1:1"] td')), 'selected connection').toEqual(selected);
      expect.soft((await rowStyle(page.locator('[data-conn="tab1:2"] td'))).background, 'another connection').not.toBe(sys.Highlight);
      expect.soft(await rowStyle(page.locator('tr[data-reply][aria-selected="true"] td')), 'selected reply').toEqual(selected);
      expect.soft((await styleOf(page.locator('tr[data-reply][aria-selected="true"] .reply-id'), 'color')).color, 'the reply id, dim elsewhere').toBe(sys.HighlightText);
      expect.soft(await rowStyle(page.locator('.vrow[aria-selected="true"]')), 'selected event').toEqual(selected);
      expect.soft((await styleOf(page.locator('.vrow[aria-selected="true"] .status-cell'), 'color')).color, 'its status').toBe(sys.HighlightText);
      expect.soft((await rowStyle(page.locator('.vrow[aria-selected="false"]'))).background, 'another event').not.toBe(sys.Highlight);

      // An event's kind swatch (the Type cell's square) was its background alone, Canvas like the row's: gone. Framed
      // in the text's colour now, HighlightText in the selected row.
      const swatch = (row: Locator) => row.locator('.type-cell').first().evaluate((el) => {
        const s = getComputedStyle(el, '::before');
        return { border: `${s.borderTopStyle} ${s.borderTopWidth}`, color: s.borderTopColor, width: parseFloat(s.width) };
      });
      const unselected = page.locator('.vrow[aria-selected="false"]').filter({ has: page.locator('.type-cell[class*="kind-"]') });
      expect.soft(await swatch(unselected), 'an event kind\'s swatch').toEqual({ border: 'solid 1px', color: sys.CanvasText, width: 8 });
      expect.soft(await swatch(page.locator('.vrow[aria-selected="true"]')), 'the selected event\'s').toEqual({ border: 'solid 1px', color: sys.HighlightText, width: 8 });

      // The selected tab's underline, and only its.
      const underline = async (name: string) => (await styleOf(page.getByRole('tab', { name, exact: true }), 'border-bottom-color'))['border-bottom-color'];
      expect.soft([await underline('Events'), await underline('Timeline'), await underline('Message'), await underline('JSON')]).toEqual([sys.Highlight, sys.Canvas, sys.Highlight, sys.Canvas]);

      // The block the step touched: its shadow ring is dropped, an outline says it.
      expect.soft(await styleOf(page.locator('.block.touched'), 'outline-style', 'outline-color')).toEqual({ 'outline-style': 'solid', 'outline-color': sys.Highlight });

      // A control focused by keyboard shows a ring; a pane divider (its ring was a background) shows Highlight.
      await page.getByRole('searchbox', { name: 'Filter connections by URL' }).focus();
      await page.keyboard.press('Tab');
      const ring = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const cs = getComputedStyle(el);
        return { visible: el.matches(':focus-visible'), style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), color: cs.outlineColor };
      });
      expect.soft(ring.visible && ring.style !== 'none' && ring.width >= 1 && ring.color !== sys.Canvas, JSON.stringify(ring)).toBe(true);
      const divider = page.getByRole('separator').first();
      await divider.focus();
      expect(await divider.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
      expect.soft((await styleOf(divider, 'background-color'))['background-color'], 'focused divider').toBe(sys.Highlight);

      // The timeline: lanes outlined in the text colour, their labels and the axis in it, the marks, the wait for the
      // user hatched, the scrubber's position in Highlight — whatever the panel's theme.
      await page.getByRole('tab', { name: 'Timeline' }).click();
      const chart = page.getByTestId('timeline').locator('svg[role=img]');
      await expect(chart).toBeVisible();
      expect.soft(await styleOf(chart.locator('.tl-span'), 'fill', 'stroke', 'opacity')).toEqual({ fill: sys.Canvas, stroke: sys.CanvasText, opacity: '1' });
      expect.soft(await styleOf(chart.locator('.tl-tick'), 'stroke', 'opacity')).toEqual({ stroke: sys.CanvasText, opacity: '1' });
      expect.soft(await styleOf(chart.locator('.lane-label'), 'fill')).toEqual({ fill: sys.CanvasText });
      expect.soft(await styleOf(page.getByTestId('timeline').locator('.tl-axis .axis-text'), 'fill')).toEqual({ fill: sys.CanvasText });
      expect.soft(await styleOf(chart.locator('.tl-mark'), 'stroke')).toEqual({ stroke: sys.CanvasText });
      await expect(chart.locator('.tl-wait-human')).toHaveCount(1);
      expect.soft(await styleOf(chart.locator('.tl-hatch'), 'stroke', 'opacity')).toEqual({ stroke: sys.GrayText, opacity: '1' });
      expect.soft(await styleOf(chart.locator('.wait-label'), 'fill')).toEqual({ fill: sys.CanvasText });
      expect.soft(await styleOf(chart.locator('.cursor'), 'stroke')).toEqual({ stroke: sys.Highlight });
      // Fit is unavailable until the chart is zoomed (aria-disabled: the browser's own disabled colour does not apply).
      expect.soft((await styleOf(page.getByRole('button', { name: 'Fit' }), 'color')).color).toBe(sys.GrayText);

      // A connection of two replies: the selected one's lanes framed in Highlight; the Table switched on.
      await page.locator('[data-conn="tab1:3"]').click();
      await page.locator('[data-reply]').first().click();
      expect.soft(await styleOf(chart.locator('.tl-band > rect:not(.tl-band-edge)'), 'stroke')).toEqual({ stroke: sys.Highlight });
      expect.soft(await styleOf(chart.locator('.tl-band-edge'), 'fill')).toEqual({ fill: sys.Highlight });
      const table = page.getByRole('button', { name: 'Table' });
      await table.click();
      await expect(table).toHaveAttribute('aria-expanded', 'true');
      expect.soft(await styleOf(table, 'background-color', 'color')).toEqual({ 'background-color': sys.Highlight, color: sys.HighlightText });

      // Told by text, which forced colours keep: a diagnostic's severity, and what the diff removed (struck through).
      await page.getByRole('tab', { name: /^Diagnostics/ }).click();
      await expect(page.locator('.diag-group .badge').first()).toHaveText('error');
      await page.getByRole('tab', { name: 'Diff' }).click();
      await expect(page.getByTestId('diff')).toContainText('→');
      expect.soft((await styleOf(page.getByTestId('diff').locator('.diff-remove'), 'text-decoration-line'))['text-decoration-line']).toBe('line-through');

      // Without forced colours the swatch is as it was: its colour alone, no frame.
      await page.emulateMedia({ forcedColors: 'none' });
      await page.getByRole('tab', { name: 'Events' }).click();
      expect.soft(await swatch(unselected), 'a swatch, not forced').toMatchObject({ border: 'none 0px', width: 8 });
      await page.close();
    });
  }
}
