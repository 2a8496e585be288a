// The timeline's human-in-the-loop waits in the standalone viewer: two agents of one session parked at once — one on
// a confirmation, one on an external execution — each wait labelled with what it waits for, the labels readable.
import { expect, test } from '@playwright/test';
import { writeCaptureLog } from '../../panel/core-bridge.ts';
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('timeline-waits');

/** A session stream: reply a asks to confirm get_weather while reply b waits for the client to run run_python. */
function sessionLog(): string {
  const ev = (type: string, reply: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: reply, created_at: '2026-12-01T09:00:00', ...extra });
  const wx = { id: 'call_wx', name: 'get_weather', input: '{"city": "Lisbon"}' };
  const py = { id: 'call_py', name: 'run_python', input: '{"code": "1"}' };
  const events = [
    ev('REPLY_START', 'a', { session_id: 's', name: 'planner' }),
    ev('REPLY_START', 'b', { session_id: 's', name: 'researcher' }),
    ev('TOOL_CALL_START', 'a', { tool_call_id: 'call_wx', tool_call_name: 'get_weather' }),
    ev('TOOL_CALL_START', 'b', { tool_call_id: 'call_py', tool_call_name: 'run_python' }),
    ev('REQUIRE_USER_CONFIRM', 'a', { tool_calls: [wx] }), // 1.0 s … 3.0 s
    ev('REQUIRE_EXTERNAL_EXECUTION', 'b', { tool_calls: [py] }), // 1.2 s … 3.2 s: the waits overlap
    ev('USER_CONFIRM_RESULT', 'a', { confirm_results: [{ confirmed: true, tool_call: wx }] }),
    ev('EXTERNAL_EXECUTION_RESULT', 'b', { execution_results: [{ ...py, output: '1', state: 'success' }] }),
    ev('REPLY_END', 'a', { session_id: 's' }),
    ev('REPLY_END', 'b', { session_id: 's' }),
  ];
  const at = [0, 100, 200, 300, 1000, 1200, 3000, 3200, 3400, 3500];
  const records: CaptureRecord[] = [{
    kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'http://127.0.0.1/', method: 'GET', url: 'http://127.0.0.1/sessions/s/stream',
    requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 1_000, responseTime: 1_000,
  }];
  events.forEach((e, i) => {
    const text = `data: ${JSON.stringify(e)}\n\n`;
    records.push({ kind: 'chunk', conn: 'c', t: 1_000 + at[i], bytes: Buffer.byteLength(text), text });
  });
  records.push({ kind: 'end', conn: 'c', t: 5_000, state: 'complete' });
  return writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-12-01T09:00:00Z' }, records });
}

test('overlapping waits of two replies: each says what it waits for, and the labels do not overlap', async () => {
  const page = await viewer.open();
  await page.getByTestId('import-input').setInputFiles({ name: 'session.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sessionLog()) });
  await expect(page.getByTestId('status')).toContainText('Imported session.replyscope.ndjson');
  await page.locator('[data-conn="c"]').click();
  await page.locator('[data-tab="timeline"]').click();

  const labels = page.getByTestId('timeline').locator('text.wait-label');
  await expect(labels).toHaveText([/^waiting for the user · 2\.00 s$/, /^waiting for external execution · 2\.00 s$/]);
  const [a, b] = [(await labels.nth(0).boundingBox())!, (await labels.nth(1).boundingBox())!];
  const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
  expect(apart, `labels at ${JSON.stringify(a)} and ${JSON.stringify(b)}`).toBe(true);
  await page.close();
});
