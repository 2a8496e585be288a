// What the panel says about one event's diagnostics, and where: the related events a diagnostic names (the dropped
// deltas of `as.delta-before-start`) as links in the event pane and the Diagnostics tab; the scrubber's step word
// beside the event's worst diagnostic when they differ (the list said "error" where the bar said "changed"); the raw
// frame's header in words ("data frame 470", not "DATA"), and a frame numbered as a frame, not as "#N" of an event.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useViewer } from './support/viewer.ts';
import { writeCaptureLog } from '../../panel/core-bridge.ts';

const viewer = useViewer('viewer-event-diagnostics');
const demo = readFileSync(path.resolve(import.meta.dirname, '../../examples/demo.replyscope.ndjson'));
/** The demo's reply whose text block got a delta (#468) before its START (#469, step 4 of 24). */
const FRIDAY = '64571f08717dc6b3fcd38ea62de60c85';

async function openDemo(size = { width: 1400, height: 860 }): Promise<Page> {
  const page = await viewer.imported('demo.replyscope.ndjson', demo, size);
  await page.locator('[data-conn="demo:1"]').click();
  return page;
}

/** The Friday reply at step 4, its event #469 (TEXT_BLOCK_START, `as.delta-before-start`, an error). */
async function atStep469(page: Page): Promise<void> {
  await page.locator(`[data-reply="${FRIDAY}"]`).click();
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 4 \/ 24\b/);
  await expect(page.getByTestId('event-detail')).toContainText('#469 TEXT_BLOCK_START');
}

/** An SSE body of these AgentScope events of reply r1, one `data:` frame each. */
const sseOf = (...events: Record<string, unknown>[]) =>
  events.map((e) => `data: ${JSON.stringify({ reply_id: 'r1', session_id: 's', name: 'A', ...e })}\n\n`).join('');

/** A capture log of one SSE connection with this body, in one chunk (answered with `status`). */
function streamLog(body: string, status = 200): string {
  return writeCaptureLog({
    header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-12-01T00:00:00Z' },
    records: [
      {
        kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'http://127.0.0.1/', method: 'GET', url: 'http://127.0.0.1/stream',
        requestHeaders: [], status, responseHeaders: [['content-type', 'text/event-stream']], startTime: 1, responseTime: 2,
      },
      { kind: 'chunk', conn: 'c', t: 3, bytes: Buffer.byteLength(body), text: body },
      { kind: 'end', conn: 'c', t: 4, state: 'complete' },
    ],
  });
}

test('a diagnostic\'s related events are links, in the event pane and the Diagnostics tab, and the keyboard follows them', async () => {
  const page = await openDemo();
  await atStep469(page);
  const detail = page.getByTestId('event-detail');
  const related = detail.getByTestId('related-events');
  await expect(related).toHaveText('related: #468');
  const link = related.getByRole('button', { name: 'Show related event #468 (TEXT_BLOCK_DELTA)' });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(detail).toContainText('#468 TEXT_BLOCK_DELTA');
  await expect(page.locator('.vrow[aria-selected="true"]')).toHaveAttribute('data-event', '468');
  // #468 relates no event: the link went with #469's pane, and focus stays in the pane, not on the document.
  await expect(detail).toBeFocused();

  // The Diagnostics tab: the occurrence at #469 lists #468 too; the link selects it, not the occurrence's own event.
  await atStep469(page);
  await page.locator('[data-tab="diagnostics"]').click();
  const group = page.locator('.diag-group[data-code="as.delta-before-start"]');
  await expect(group.getByTestId('related-events')).toHaveText('related: #468');
  await group.getByRole('button', { name: 'Show related event #468 (TEXT_BLOCK_DELTA)' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-detail')).toContainText('#468 TEXT_BLOCK_DELTA');
  await page.close();
});

test('a long list of related events shows the first five and "+N more", which shows the rest', async () => {
  const deltas = Array.from({ length: 8 }, (_, i) => ({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: `w${i} ` }));
  const log = streamLog(sseOf({ type: 'REPLY_START', role: 'assistant' }, ...deltas, { type: 'TEXT_BLOCK_START', block_id: 'b' }, { type: 'TEXT_BLOCK_END', block_id: 'b' }, { type: 'REPLY_END' }));
  const page = await viewer.open();
  await page.getByTestId('import-input').setInputFiles({ name: 'early.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(log) });
  await expect(page.getByTestId('status')).toContainText('Imported early.replyscope.ndjson');
  await page.locator('[data-conn="c"]').click();
  await page.locator('[data-tab="diagnostics"]').click();
  const related = page.locator('.diag-group[data-code="as.delta-before-start"]').getByTestId('related-events');
  await expect(related).toHaveText('related: #1, #2, #3, #4, #5, +3 more');
  await related.getByRole('button', { name: 'Show 3 more related events' }).focus();
  await page.keyboard.press('Enter');
  await expect(related).toHaveText('related: #1, #2, #3, #4, #5, #6, #7, #8');
  // The button went with its press: focus is on the first event it showed, not on the document.
  await expect(related.getByRole('button', { name: /^Show related event #6\b/ })).toBeFocused();
  await related.getByRole('button', { name: /^Show related event #8\b/ }).click();
  await expect(page.getByTestId('event-detail')).toContainText('#8 TEXT_BLOCK_DELTA');
  await page.close();
});

test('what concerns the connection as a whole is the connection\'s in the Diagnostics tab, and flags no event', async () => {
  const log = streamLog(sseOf({ type: 'REPLY_START', role: 'assistant' }, { type: 'TEXT_BLOCK_START', block_id: 'b' }, { type: 'TEXT_BLOCK_END', block_id: 'b' }, { type: 'REPLY_END' }), 503);
  const page = await viewer.open();
  await page.getByTestId('import-input').setInputFiles({ name: 'failed.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(log) });
  await expect(page.getByTestId('status')).toContainText('Imported failed.replyscope.ndjson');
  await page.locator('[data-conn="c"]').click();
  // The first event is sound: the HTTP 503 (index 0) is not told at it.
  await expect(page.locator('.vrow[data-event="0"] .status-cell')).toHaveText('ok');
  await page.locator('[data-tab="diagnostics"]').click();
  const occurrence = page.locator('.diag-group[data-code="stream.http-error"]').getByTestId('diag-occurrence');
  await expect(occurrence).toHaveText(/^connection\s*HTTP 503/);
  await page.close();
});

test('the scrubber says what append_event did and, when it differs, the event\'s worst diagnostic, coloured as the list', async () => {
  const page = await openDemo();
  await atStep469(page);
  const row = page.locator('.vrow[data-event="469"] .status-cell');
  await expect(row).toHaveText('error');
  const said = page.getByTestId('step-said');
  await expect(said).toHaveText('#469 · changed · error');
  await expect(said.getByTestId('step-event-status')).toHaveClass(/\berr\b/);
  await expect(said).toHaveAttribute('title', /append_event.*\n.*worst diagnostic/s);
  // A step whose event has no diagnostic says the step's word alone.
  await page.keyboard.press('ArrowRight');
  await expect(said).toHaveText('#470 · changed');

  // Docked below (the compact bar): said beside the position, the same words.
  await page.keyboard.press('ArrowLeft');
  await page.setViewportSize({ width: 800, height: 500 });
  await expect(page.getByTestId('step-pos')).toHaveText('step 4 / 24 · changed · error');
  await page.close();
});

test('the raw frame\'s header says what kind of frame in words, and a frame alone is numbered as a frame, not "#N"', async () => {
  const page = await openDemo();
  await atStep469(page);
  // Frame 470 beside event #469: both from 0, the body's ":" keep-alive (frame 255) a frame of no event.
  await expect(page.getByTestId('event-detail').locator('h4', { hasText: 'Raw frame' })).toHaveText(/^Raw frame \(data frame 470 of the body\)/);
  await page.close();

  const log = streamLog(sseOf({ type: 'REPLY_START', role: 'assistant' }) + ': ping\n\n' + sseOf({ type: 'REPLY_END' }));
  const p2 = await viewer.open();
  await p2.getByTestId('import-input').setInputFiles({ name: 'beat.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(log) });
  await expect(p2.getByTestId('status')).toContainText('Imported beat.replyscope.ndjson');
  await p2.locator('[data-conn="c"]').click();
  await p2.locator('.vrow.heartbeat').first().click();
  const frame = p2.getByTestId('frame-detail');
  await expect(frame.getByTestId('frame-number')).toHaveText('1 heartbeat'); // under "frame"; it said "#1", an event's number
  await expect(frame.locator('h4', { hasText: 'Raw frame' })).toHaveText(/^Raw frame \(comment frame 1 of the body\)/);
  await p2.close();
});
