// The standalone viewer as someone reads it who enlarges text or asks for less motion: zoomed to 200 % (a 1400 × 860
// window is 700 × 430 CSS px — deviceScaleFactor alone does not do it), with Chromium's minimum font size raised to
// 16 px (the panel's fonts are 10–12 px, fixed), and with prefers-reduced-motion: reduce.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { sampleCapture } from '../../panel/dev/sample-capture.ts';
import { writeCaptureLog } from '../../panel/core-bridge.ts';
import { CHROMIUM } from './support/extension.ts';
import { withTempDir } from './support/temp-dir.ts';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('viewer-zoom-motion');
const sampleLog = writeCaptureLog(sampleCapture());

async function importSample(page: Page): Promise<void> {
  await page.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) });
  await expect(page.getByTestId('status')).toContainText('Imported sample.replyscope.ndjson');
  await page.locator('[data-conn="tab1:1"]').click();
}

/** The controls of the toolbar, the tab bars and the step bar that are cut or covered: none is the answer. */
function controlsOutOfReach(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('.toolbar :is(button, input, select), .tabs :is(button, input, select), .scrubber :is(button, input, select)')) {
      if (el.closest('.sr-only') || el.getClientRects().length === 0) continue;
      const r = el.getBoundingClientRect();
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName;
      if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) out.push(`${name}: outside the window`);
      else if (!el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2))) out.push(`${name}: covered`);
      // A text control whose text is taller than its box is cut at the bottom.
      if ((el.tagName === 'SELECT' || el.tagName === 'INPUT') && el.scrollHeight > el.clientHeight) out.push(`${name}: text cut (${el.scrollHeight} > ${el.clientHeight} px)`);
    }
    return out;
  });
}

test('at 200 % zoom (700 × 430 CSS px): every control whole and in reach, and a long change in the diff wraps', async () => {
  const page = await viewer.imported('sample.replyscope.ndjson', Buffer.from(sampleLog), { width: 700, height: 430 });
  await page.locator('[data-conn="tab1:1"]').click();
  await page.getByLabel('Event type').selectOption('DATA_BLOCK_DELTA');
  await page.locator('[data-event]').first().click();
  await page.getByRole('tab', { name: 'Diff' }).click();
  const diff = page.getByTestId('diff');
  await expect(diff).toContainText('+= "iVBOR');
  expect(await controlsOutOfReach(page)).toEqual([]);
  // The data chunk's base64 (~2,700 px on one line) wraps: the pane does not scroll sideways to read it.
  const overflow = await diff.evaluate((el) => ({ scroll: el.parentElement!.scrollWidth, client: el.parentElement!.clientWidth }));
  expect(overflow.scroll, JSON.stringify(overflow)).toBeLessThanOrEqual(overflow.client);
  await page.getByRole('tab', { name: 'Timeline' }).click();
  expect(await controlsOutOfReach(page)).toEqual([]);
  await page.close();
});

test('with the minimum font size at 16 px: the search boxes and selects are tall enough for their text, and a cut column heading has its name in its title', async () => {
  await withTempDir('replyscope-min-font-', async (profile) => {
    // Settings → Appearance → Customize fonts → Minimum font size, as the profile stores it.
    mkdirSync(path.join(profile, 'Default'));
    writeFileSync(path.join(profile, 'Default', 'Preferences'), JSON.stringify({ webkit: { webprefs: { minimum_font_size: 16, minimum_logical_font_size: 16 } } }));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'], viewport: { width: 1400, height: 860 } });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${viewer.url}/index.html`);
      await importSample(page);
      expect(await page.evaluate(() => getComputedStyle(document.body).fontSize), 'the setting is applied').toBe('16px');
      // A fixed 20 px cut a select's text at the bottom ("All tvpes", "1× (recorded)").
      expect(await controlsOutOfReach(page)).toEqual([]);
      // Narrow column headings are cut at this size ("Met…", "St…"): each heading of the three lists says its whole
      // name in its title. At least one is cut here, so the check is about a real cut, not a hypothetical one.
      const headings = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('th, [role=columnheader]')]
        .filter((el) => el.getClientRects().length > 0 && !el.closest('[data-testid="keyboard-help"]'))
        .map((el) => ({ text: el.textContent?.trim() ?? '', cut: el.scrollWidth > el.clientWidth, title: el.getAttribute('title') ?? '' })));
      expect(headings.filter((h) => h.cut).length, JSON.stringify(headings)).toBeGreaterThan(0);
      expect(headings.filter((h) => h.title === '').map((h) => h.text)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

test('prefers-reduced-motion: nothing in the panel animates — no transition, animation or smooth scrolling, Play included', async () => {
  const context = await viewer.browser.newContext({ viewport: { width: 1400, height: 860 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${viewer.url}/index.html`);
  await importSample(page);
  await page.keyboard.press('Home');
  const moving = () => page.evaluate(() => {
    const out = document.getAnimations().map((a) => `animation ${(a as CSSAnimation).animationName ?? a.id}`);
    for (const el of document.querySelectorAll('*')) {
      const cs = getComputedStyle(el);
      if (cs.transitionDuration.split(',').some((d) => parseFloat(d) > 0)) out.push(`transition on ${el.className}`);
      if (cs.animationName !== 'none') out.push(`animation ${cs.animationName} on ${el.className}`);
      if (cs.scrollBehavior === 'smooth') out.push(`smooth scrolling on ${el.className}`);
    }
    return out;
  });
  // Play (started by the user, paused by Space) steps the message on at the recorded pace; the list follows each
  // step by a jump, not a scroll animation.
  const slider = page.getByRole('slider');
  const first = await slider.inputValue();
  await page.getByRole('combobox', { name: 'Playback speed' }).selectOption({ label: '4×' });
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(slider).not.toHaveValue(first);
  expect(await moving()).toEqual([]);
  await page.getByRole('button', { name: 'Pause' }).click();
  for (const tab of ['Timeline', 'Diagnostics']) {
    await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
    expect(await moving(), tab).toEqual([]);
  }
  await context.close();
});
