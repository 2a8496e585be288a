// The timeline's CUSTOM lanes and reply marks.
import { expect, test, type Page } from '@playwright/test';
import { writeCaptureLog } from '../../panel/core-bridge.ts';
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('timeline-text');

/** One reply with a text block and an interrupt; CUSTOM notifications (no reply_id) before, inside and after it. */
function sessionLog(): string {
  const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: 'a', created_at: '2026-12-01T09:00:00', ...extra });
  const custom = (name: string, value: Record<string, unknown>) => ({ type: 'CUSTOM', name, value, created_at: '2026-12-01T09:00:00' });
  const events = [
    custom('state_updated', { tasks: 1 }), // #0
    ev('REPLY_START', { session_id: 's', name: 'planner' }), // #1
    ev('TEXT_BLOCK_START', { block_id: 't1' }), // #2
    ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: 'Hello' }), // #3
    custom('state_updated', { tasks: 2 }), // #4
    ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: ' there' }), // #5
    ev('TEXT_BLOCK_END', { block_id: 't1' }), // #6
    ev('USER_INTERRUPT'), // #7
    ev('REPLY_END', { session_id: 's' }), // #8
    custom('team_updated', {}), // #9
  ];
  const at = [0, 100, 200, 300, 400, 500, 600, 900, 1000, 1500];
  const records: CaptureRecord[] = [{
    kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'http://127.0.0.1/', method: 'GET', url: 'http://127.0.0.1/sessions/s/stream',
    requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 1_000, responseTime: 1_000,
  }];
  events.forEach((e, i) => {
    const text = `data: ${JSON.stringify(e)}\n\n`;
    records.push({ kind: 'chunk', conn: 'c', t: 1_000 + at[i], bytes: Buffer.byteLength(text), text });
  });
  records.push({ kind: 'end', conn: 'c', t: 2_000, state: 'complete' });
  return writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-12-01T09:00:00Z' }, records });
}

async function openTimeline(): Promise<Page> {
  const page = await viewer.open();
  await page.getByTestId('import-input').setInputFiles({ name: 'session.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sessionLog()) });
  await expect(page.getByTestId('status')).toContainText('Imported session.replyscope.ndjson');
  await page.locator('[data-conn="c"]').click();
  await page.locator('[data-tab="timeline"]').click();
  return page;
}

/** The index the event pane shows (its "#N"). */
const shownEvent = async (page: Page) => Number((await page.getByTestId('event-detail').locator('.kv span').nth(1).textContent())!.match(/#(\d+)/)![1]);

test('CUSTOM notifications get a lane per name, a mark each; a click on a mark (CUSTOM or the reply\'s interrupt) selects its event', async () => {
  const page = await openTimeline();
  const timeline = page.getByTestId('timeline');
  await expect(timeline.locator('text.lane-label')).toContainText(['reply a', 'text t1', 'custom state_updated', 'custom team_updated']);
  const marks = timeline.locator('[data-lane="custom::state_updated"] rect');
  await expect(marks).toHaveCount(2);

  const box = (await marks.nth(1).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('event-detail')).toContainText('CUSTOM');
  expect(await shownEvent(page)).toBe(4);

  const interrupt = (await timeline.locator('line.tl-mark[data-mark="USER_INTERRUPT"]').boundingBox())!;
  await page.mouse.click(interrupt.x + interrupt.width / 2, interrupt.y + interrupt.height / 2);
  await expect(page.getByTestId('event-detail')).toContainText('USER_INTERRUPT');
  expect(await shownEvent(page)).toBe(7);
  await page.close();
});
