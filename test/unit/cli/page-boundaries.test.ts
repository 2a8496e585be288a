// validate on a capture made with "Preserve log": the report says which page each stream came from, a line where the
// tab navigated, as the panel draws a row between the pages' connections.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.ts';
import { makeHeader, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';

const stream = (id: string, path: string, t: number): CaptureRecord[] => {
  const text = `data: ${JSON.stringify({ type: 'REPLY_START', reply_id: id, session_id: 's', name: 'Friday' })}\n\ndata: ${JSON.stringify({ type: 'REPLY_END', reply_id: id, session_id: 's' })}\n\n`;
  return [
    { kind: 'connection', id, transport: 'fetch', frameUrl: `https://app.test${path}`, method: 'GET', url: `https://app.test${path}/stream`, requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: t },
    { kind: 'chunk', conn: id, t: t + 1, bytes: text.length, text },
    { kind: 'end', conn: id, t: t + 2, state: 'complete' },
  ];
};
const validate = (records: CaptureRecord[]) =>
  runCli(['validate', 'capture.replyscope.ndjson'], () => new TextEncoder().encode(writeCaptureLog({ header: makeHeader('test'), records })));

describe('validate: page boundaries', () => {
  it('puts a line where the tab navigated, between the pages\' connections, with its time', async () => {
    const t = Date.parse('2026-12-01T09:00:00.000Z');
    const out = await validate([
      ...stream('a:1', '/chat', t),
      { kind: 'navigation', t: t + 5000, url: 'https://app.test/settings' },
      { kind: 'navigation', t: t + 9000, url: 'https://app.test/chat?again' },
      ...stream('b:1', '/chat', t + 9500),
      { kind: 'navigation', t: t + 20000, url: 'https://app.test/bye' }, // a page that streamed nothing (yet)
    ]);
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.split('\n').filter((l) => !l.startsWith('  '));
    expect(lines.slice(0, 5)).toEqual([
      'GET https://app.test/chat/stream — agentscope, 2 events, 1 reply',
      '— navigated to https://app.test/settings at 2026-12-01T09:00:05.000Z —',
      '— navigated to https://app.test/chat?again at 2026-12-01T09:00:09.000Z —',
      'GET https://app.test/chat/stream — agentscope, 2 events, 1 reply',
      '— navigated to https://app.test/bye at 2026-12-01T09:00:20.000Z —',
    ]);
  });

  it('a capture of one page has no such line', async () => {
    const out = await validate(stream('a:1', '/chat', 1000));
    expect(out.stdout).not.toMatch(/navigated to/);
  });
});
