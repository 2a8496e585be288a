// The timeline at a wide panel (W, 1600×900) and a docked one (N, 800×500): the time axis reads in one format.
import { expect, test, type Page } from '@playwright/test';
import { writeCaptureLog } from '../../panel/core-bridge.ts';
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('timeline-follow');

const SIZES = { W: { width: 1600, height: 900 }, N: { width: 800, height: 500 } } as const;

/** A 32-digit hex id, as AgentScope's uuid4().hex, made from `seed`. */
const hexId = (seed: string) => Array.from({ length: 32 }, (_, i) => ((seed.charCodeAt(i % seed.length) * 7 + i * 13) % 16).toString(16)).join('');

const REPLIES = 16;
const replyId = (r: number) => hexId(`reply-${r}`);

/**
 * Sixteen replies 12 s apart (an axis of ~3 min), each with two text blocks and a thinking block: 64 lanes, the
 * later replies' block lanes far below the chart's first screen.
 */
function sessionLog(): string {
  const events: [Record<string, unknown>, number][] = [];
  for (let r = 0; r < REPLIES; r++) {
    const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: replyId(r), created_at: '2026-12-01T09:00:00', ...extra });
    const t0 = r * 12_000;
    events.push([ev('REPLY_START', { session_id: 's', name: `agent${r}` }), t0]);
    const blocks = [['THINKING', hexId(`think-${r}`)], ['TEXT', hexId(`text-a-${r}`)], ['TEXT', hexId(`text-b-${r}`)]];
    blocks.forEach(([kind, id], b) => {
      const at = t0 + 100 + b * 1_000;
      events.push([ev(`${kind}_BLOCK_START`, { block_id: id }), at]);
      events.push([ev(`${kind}_BLOCK_DELTA`, { block_id: id, delta: 'x' }), at + 100]);
      events.push([ev(`${kind}_BLOCK_END`, { block_id: id }), at + 200]);
    });
    events.push([ev('REPLY_END', { session_id: 's' }), t0 + 4_000]);
  }
  const records: CaptureRecord[] = [{
    kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'http://127.0.0.1/', method: 'GET', url: 'http://127.0.0.1/sessions/s/stream',
    requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 1_000, responseTime: 1_000,
  }];
  for (const [e, at] of events) {
    const text = `data: ${JSON.stringify(e)}\n\n`;
    records.push({ kind: 'chunk', conn: 'c', t: 1_000 + at, bytes: Buffer.byteLength(text), text });
  }
  records.push({ kind: 'end', conn: 'c', t: 1_000 + REPLIES * 12_000, state: 'complete' });
  return writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-12-01T09:00:00Z' }, records });
}

async function openSession(size: { width: number; height: number }): Promise<Page> {
  const page = await viewer.browser.newPage({ viewport: size });
  page.on('pageerror', (err) => {
    throw err;
  });
  await page.goto(`${viewer.url}/index.html`);
  await page.getByTestId('import-input').setInputFiles({ name: 's.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sessionLog()) });
  await expect(page.getByTestId('status')).toContainText('Imported s.replyscope.ndjson');
  await page.locator('[data-conn="c"]').click();
  return page;
}

for (const [name, size] of Object.entries(SIZES)) {
  test(`${name}: the time axis reads in one format`, async () => {
    const page = await openSession(size);
    await page.locator('[data-tab="timeline"]').click();
    const axis = page.getByTestId('timeline').locator('text.axis-text:not(.wait-label)');
    // The whole ~3 min: m:ss on every label ("20.00 s" stood next to "1 min 0 s"), the first minute's too.
    const whole = await axis.allTextContents();
    expect(whole.length).toBeGreaterThan(1);
    expect(whole.filter((l) => !/^\d+:\d\d$/.test(l))).toEqual([]);
    expect(whole[0]).toBe('0:00');
    // Zoomed in: one unit on every label, as many decimals on each.
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
    const zoomed = await axis.allTextContents();
    expect(zoomed.length).toBeGreaterThan(1);
    const unit = (l: string) => (/^\d+:\d\d(\.\d+)?$/.test(l) ? 'm:ss' : l.replace(/^[\d.]+/, (n) => (n.includes('.') ? `n.${n.split('.')[1].length}` : 'n')));
    expect(new Set(zoomed.map(unit)).size).toBe(1);
    await page.close();
  });
}
