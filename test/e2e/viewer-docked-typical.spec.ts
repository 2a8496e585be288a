// The panel at the sizes DevTools is usually docked at — to the right, 600–700 px wide and tall (the panes still side
// by side), and below, wide and ~340 px tall — with the demo capture: each reply's name is whole, the scrubber keeps
// every button and says the step's status whole, a focused list's ring marks the list and not its pane's title, the
// event list and the message both keep room in the short panel, and a divider size stored in another window (or an
// older version) cannot leave a pane unusable. Beside, at 600–700 px: an event type's last word stays in view, the event
// is a tab rather than a narrow column, the event search's placeholder and each diagnostic heading's code and count are
// whole, and at 600–800 px a type chosen in the type filter shows its last word, "_EXECUTION" too (docked below, 800–1400 px wide:
// viewer-docked-below.spec.ts).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { useViewer } from './support/viewer.ts';
import { boxOf, connectionRowsInSight, eventRowsInView, openDocked } from './support/layout.ts';

const viewer = useViewer('viewer-docked-typical');
const RIGHT = [{ width: 600, height: 800 }, { width: 700, height: 800 }] as const;
const BELOW = { width: 1400, height: 340 };



/** Each reply row's name: how wide it is laid out against its text, on the row's line or not, and the row's title. */
const replyNames = (page: Page) =>
  page.getByTestId('replies').locator('[data-reply]').evaluateAll((rows) => rows.map((row) => {
    const name = row.querySelector<HTMLElement>('.reply-name');
    const cell = row.querySelector('td')!.getBoundingClientRect();
    const b = name?.getBoundingClientRect();
    return {
      id: (row as HTMLElement).dataset.reply!,
      name: name?.textContent ?? '',
      whole: name !== null && name.scrollWidth <= name.clientWidth,
      shown: b !== undefined && b.width > 0 && b.top >= cell.top && b.bottom <= cell.bottom + 0.5 && b.right <= cell.right,
      title: row.getAttribute('title') ?? '',
    };
  }));

for (const size of RIGHT) {
  const name = `${size.width} × ${size.height}`;

  test(`at ${name} each reply's name is whole beside its number, the name and id whole in the row's title`, async () => {
    const page = await openDocked(viewer, size);
    const rows = await replyNames(page);
    expect(rows.length).toBe(12);
    for (const row of rows.filter((r) => r.name !== '')) {
      // At 600 px each read "R5 F… 3b07…": the name cut to its first letter to keep the id's head.
      expect(row, `${row.name} of ${row.id}`).toMatchObject({ whole: true, shown: true });
      expect(row.title).toContain(`${row.name} · ${row.id}`);
    }
    await page.screenshot({ path: test.info().outputPath(`replies-${size.width}x${size.height}.png`) });
    await page.close();
  });

  test(`at ${name} the scrubber keeps First and Last step, clickable, and says the step's status whole`, async () => {
    const page = await openDocked(viewer, size);
    const scrubber = page.getByTestId('scrubber');
    const pos = page.getByTestId('step-pos');
    // At 600 px the bar dropped First and Last (only Home and End did the same) and read "step 61 / 61 · c…".
    await expect(pos).toHaveText('step 61 / 61 · changed');
    expect(await pos.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    for (const control of await scrubber.locator('button, select, input').all()) {
      const b = await boxOf(control);
      expect(b.left >= 0 && b.right <= size.width && b.top >= 0 && b.bottom <= size.height, await control.getAttribute('aria-label') ?? '').toBe(true);
    }
    await scrubber.getByRole('button', { name: 'First step' }).click();
    await expect(pos).toContainText('step 1 / 61');
    await scrubber.getByRole('button', { name: 'Last step' }).click();
    await expect(pos).toContainText('step 61 / 61');
    await page.close();
  });
}

/** The box of the element whose ::after is a focused list's ring (an absolute box of a 2 px border over it). */
const ringBox = (page: Page) =>
  page.evaluate(() => {
    const ringed = [...document.querySelectorAll('.app *')].filter((el) => {
      const after = getComputedStyle(el, '::after');
      return after.content !== 'none' && after.position === 'absolute' && after.borderTopWidth === '2px' && after.borderTopStyle === 'solid';
    });
    return ringed.map((el) => {
      const b = el.getBoundingClientRect();
      return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
    });
  });

for (const [list, title] of [['replies', 'Replies'], ['connections', 'Connections']] as const) {
  test(`a focused ${list} list's ring is drawn around the list, not its pane's title`, async () => {
    const page = await openDocked(viewer, RIGHT[0]);
    await page.getByRole('grid', { name: title }).focus();
    await page.keyboard.press('ArrowDown'); // (keyboard focus: :focus-visible)
    const rings = await ringBox(page);
    expect(rings).toHaveLength(1);
    const [ring] = rings;
    const listBox = await boxOf(page.getByTestId(list));
    const titleBox = await boxOf(page.locator('.pane-title', { hasText: title }));
    // The ring took in the title bar above the list (as if the title had focus).
    expect(ring.top).toBeGreaterThanOrEqual(titleBox.bottom - 0.5);
    for (const side of ['left', 'top', 'right', 'bottom'] as const) expect(Math.abs(ring[side] - listBox[side]), side).toBeLessThanOrEqual(1);
    await page.close();
  });
}

const heightOf = async (l: Locator) => { const b = await boxOf(l); return b.bottom - b.top; };

// Sizes stored by an earlier session: shares of the split (the connection list 90% of the height, the event list 95%
// of its split), as dragged in a tall window.
const TALL_PICKS = { connections: '0.9', main: '0.95' };
for (const [what, stored] of [['as it opens', {}], ['with divider sizes picked in a tall window', TALL_PICKS]] as const) {
  test(`docked below (1400 × 340) ${what}, the event list and the message both keep room`, async () => {
    const page = await openDocked(viewer, BELOW, stored);
    // The message showed its tab bar and no line (six event rows above it); with the tall window's sizes the connection
    // list took all but ~90 px and the message pane had no height at all.
    expect(await eventRowsInView(page)).toBeGreaterThanOrEqual(2);
    // The connection list above them ends between two rows: it showed one and a half (viewer-docked-below.spec.ts).
    for (const r of await connectionRowsInSight(page)) expect(r, r.row).toMatchObject({ whole: true });
    expect(await heightOf(page.locator('[id="message-view"]'))).toBeGreaterThanOrEqual(40);
    await expect(page.locator('[id="message-view"] .bubble')).toBeInViewport();
    await page.screenshot({ path: test.info().outputPath(`below-${Object.keys(stored).length ? 'picked' : 'default'}.png`) });
    await page.close();
  });
}

for (const [share, what] of [['0.95', 'nearly the whole width'], ['0.05', 'a sliver']] as const) {
  test(`at 600 × 800 a replies width stored as ${what} of the window leaves both panes usable, and stays stored`, async () => {
    const page = await openDocked(viewer, RIGHT[0], { replies: share });
    const replies = await boxOf(page.getByTestId('replies'));
    const events = await boxOf(page.getByTestId('events'));
    // 95% of a wide window left the event list 180 px; 5% left the replies 60 px, a letter of each name.
    expect(events.right - events.left).toBeGreaterThanOrEqual(370);
    expect(replies.right - replies.left).toBeGreaterThanOrEqual(195);
    for (const row of (await replyNames(page)).filter((r) => r.name !== '')) expect(row, row.id).toMatchObject({ whole: true, shown: true });
    // Bounded as laid out, not overwritten: in the window it was picked in, the size is the user's again.
    expect(await page.evaluate(() => localStorage.getItem('replyscope.split.replies'))).toBe(share);
    await page.close();
  });
}

/**
 * Where the characters `from`…end of an element's text are laid out (a range over its text nodes, whatever spans hold
 * them; a range's boxes are where the text is drawn, clipped or not), and the element's own box.
 */
const tailBoxes = (el: Element, from: number) => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let seen = 0;
  let started = false;
  let last: Text | undefined;
  for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
    if (!started && seen + n.length > from) {
      range.setStart(n, from - seen);
      started = true;
    }
    seen += n.length;
    last = n;
  }
  range.setEnd(last!, last!.length);
  return [...range.getClientRects()].map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom }));
};

for (const size of RIGHT) {
  const name = `${size.width} × ${size.height}`;

  test(`at ${name} each event's type keeps in view the last word that tells it apart, the whole name in its text and title`, async () => {
    const page = await openDocked(viewer, size);
    const cells = await page.getByTestId('events').locator('.vrow .type-cell').evaluateAll((els, fn) => {
      const boxes = new Function(`return ${fn}`)() as (el: Element, from: number) => { left: number; right: number }[];
      return els.map((cell) => {
        const text = cell.textContent ?? '';
        const b = cell.getBoundingClientRect();
        const pad = parseFloat(getComputedStyle(cell).paddingRight);
        const word = Math.max(text.lastIndexOf('_'), 0);
        const drawn = boxes(cell, word);
        return {
          text,
          title: cell.getAttribute('title'),
          // Wider than its cell: the name is cut somewhere.
          cut: cell.scrollWidth > cell.clientWidth || [...cell.children].some((c) => c.scrollWidth > c.clientWidth),
          lastWordShown: drawn.length > 0 && drawn.every((r) => r.left >= b.left && r.right <= b.right - pad + 0.5),
        };
      });
    }, tailBoxes.toString());
    expect(cells.length).toBeGreaterThan(5);
    // At 600 px every TEXT_BLOCK_* read "TEXT_BLOCK_D…" / "_S…" / "_E…", at 700 MODEL_CALL_START "MODEL_CALL_ST…".
    expect(cells.some((c) => c.cut), 'some type is too long for its cell').toBe(true);
    for (const c of cells) expect(c, c.text).toMatchObject({ title: c.text, lastWordShown: true });
    await page.screenshot({ path: test.info().outputPath(`types-${size.width}x${size.height}.png`) });
    await page.close();
  });

  test(`at ${name} the event is a tab beside the message's, its type on one line, not a column beside the message`, async () => {
    const page = await openDocked(viewer, size);
    // The event pane was a 110–140 px column: "REPLY_END" read "REPLY_ / END" and ids broke a character a line.
    await page.getByRole('tab', { name: 'Event', exact: true }).click();
    const detail = page.getByTestId('event-detail');
    await expect(detail).toContainText('REPLY_END');
    const lines = await detail.locator('.kv').first().evaluate((kv) => {
      const text = kv.textContent ?? '';
      const at = text.indexOf('REPLY_END');
      const walker = document.createTreeWalker(kv, NodeFilter.SHOW_TEXT);
      let seen = 0;
      for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
        if (seen + n.length > at) {
          const range = document.createRange();
          range.setStart(n, at - seen);
          range.setEnd(n, at - seen + 'REPLY_END'.length);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }
        seen += n.length;
      }
      return 0;
    });
    expect(lines).toBe(1);
    // Wide again (DevTools undocked), the event has its pane beside the message once more, the message's tab chosen.
    await page.setViewportSize({ width: 1400, height: 800 });
    await expect(page.getByRole('tab', { name: 'Event', exact: true })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Message', exact: true })).toHaveAttribute('aria-selected', 'true');
    await expect(detail).toBeVisible();
    expect((await boxOf(detail)).left).toBeGreaterThanOrEqual((await boxOf(page.locator('[id="message-view"]'))).right - 0.5);
    await page.close();
  });

  test(`at ${name} each diagnostic's heading keeps its code and count on one line, only its title wraps`, async () => {
    const page = await openDocked(viewer, size);
    await page.locator('[data-tab="diagnostics"]').click();
    const heads = page.getByTestId('diagnostics').locator('.diag-group h3');
    await expect(heads.first()).toBeVisible();
    const lines = await heads.evaluateAll((hs) => hs.map((h) => [...h.children].filter((c) => !c.classList.contains('diag-title')).map((c) => {
      const range = document.createRange();
      range.selectNodeContents(c);
      return { text: c.textContent, lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size };
    })).flat());
    // At 700 px the count broke "× / 1" and the code "as.invalid- / base64".
    expect(lines.length).toBeGreaterThan(10);
    for (const l of lines) expect(l, l.text ?? '').toMatchObject({ lines: 1 });
    await page.close();
  });
}

test('at 600 × 800 the event search\'s placeholder is whole', async () => {
  const page = await openDocked(viewer, RIGHT[0]);
  const search = page.getByRole('searchbox', { name: 'Search events' });
  const fit = await search.evaluate((input: HTMLInputElement) => {
    const css = getComputedStyle(input);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = css.font;
    // The clear button's place (~1em) is kept at the end of an empty search field too.
    const room = input.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - parseFloat(css.fontSize);
    return { text: ctx.measureText(input.placeholder).width, room };
  });
  // It read "Search event" (the type filter kept ~150 px for "All types").
  expect(fit.text, JSON.stringify(fit)).toBeLessThanOrEqual(fit.room);
  await page.close();
});

for (const size of [...RIGHT, { width: 800, height: 500 }]) {
  test(`at ${size.width} × ${size.height} a type chosen in the type filter shows the last word that tells it apart`, async () => {
    const page = await openDocked(viewer, size);
    const select = page.getByRole('combobox', { name: 'Event type' });
    // At 800 px the bar beside the tabs left the select ~90 px, a last word of up to ~7 letters ("_RESULT") whole:
    // "_EXECUTION" read "_EXEC…" there; at 600 and 700 the bar is a row of its own.
    const types = ['TEXT_BLOCK_DELTA', 'TEXT_BLOCK_START', 'THINKING_BLOCK_START', 'EXTERNAL_EXECUTION_RESULT', 'REQUIRE_EXTERNAL_EXECUTION'];
    for (const type of types) {
      await select.selectOption(type);
      // Where the type's last word is drawn, and whether it is inside the select's text box (left of its arrow): the
      // select's own text where it paints it, else the name laid over it.
      const shown = await select.evaluate((s: HTMLSelectElement, word) => {
        const box = s.getBoundingClientRect();
        const css = getComputedStyle(s);
        const inside = (left: number, right: number) => left >= box.left && right <= box.right - 14; // the arrow: its last 14 px
        if (css.webkitTextFillColor !== 'rgba(0, 0, 0, 0)') {
          const ctx = document.createElement('canvas').getContext('2d')!;
          ctx.font = css.font;
          const text = s.selectedOptions[0].text;
          const start = box.left + parseFloat(css.borderLeftWidth) + parseFloat(css.paddingLeft);
          return { by: 'select', whole: inside(start, start + ctx.measureText(text.slice(0, text.lastIndexOf(word) + word.length)).width) };
        }
        const tail = s.parentElement!.querySelector('.type-tail');
        const b = tail?.getBoundingClientRect();
        if (!tail || !b || tail.textContent !== word) return { by: 'overlay', whole: false };
        // Not cut itself (its box clips what overflows it — by a fraction of a pixel too, with an "…"), nor by the box
        // laid over the select: where its text is laid out, clipped or not, is inside both.
        const range = document.createRange();
        range.selectNodeContents(tail);
        const text = range.getBoundingClientRect();
        return { by: 'overlay', whole: text.width > 0 && text.left >= b.left - 0.01 && text.right <= b.right + 0.01 && inside(text.left, text.right) };
      }, type.slice(type.lastIndexOf('_')));
      // At 800 px "TEXT_BLOCK_DELTA (280)" read "TEXT_BLO", as every TEXT_BLOCK_* did; at 600 and 700 the others' ends were cut.
      expect(shown, type).toMatchObject({ whole: true });
      await expect(select).toHaveAttribute('title', type);
    }
    if (size.width >= 800) {
      // Room made beside the tabs (narrower tabs), not by a row of its own: one event row fewer.
      const tabs = await boxOf(page.getByRole('tablist').filter({ has: page.getByRole('tab', { name: 'Events', exact: true }) }));
      expect((await boxOf(select)).top).toBeLessThan(tabs.bottom);
    }
    await page.screenshot({ path: test.info().outputPath(`type-filter-${size.width}x${size.height}.png`) });
    await page.close();
  });
}
