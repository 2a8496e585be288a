import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.ts';
import { importHar } from '../../../src/core/capture/har-import.ts';

// What concerns a connection as a whole — a note of a HAR entry's import (its body's charset, messages not saved), an
// HTTP error, no known dialect — is told as the connection's, under its header line: a HAR entry's note was told at
// the connection's last event, as if that event were at fault, and the others at its first.
const event = (e: object) => `data: ${JSON.stringify({ id: 'e1', created_at: '2026-01-01T00:00:00', metadata: {}, session_id: 's', reply_id: 'r1', ...e })}\n\n`;
const body = event({ type: 'REPLY_START', name: 'a', role: 'assistant' }) + event({ id: 'e2', type: 'REPLY_END', text: 'café' });
/** Chrome's "Save all as HAR" of an SSE answer whose Content-Type names no charset: the body saved decoded as Windows-1252. */
const mojibake = Buffer.from(body).toString('latin1'); // "café" → "cafÃ©" (Latin-1 is Windows-1252 for these bytes)
const har = (status = 200) => JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [{
  startedDateTime: '2026-01-01T00:00:00.000Z', time: 100,
  request: { method: 'GET', url: 'https://a.test/stream', httpVersion: 'http/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
  response: { status, statusText: '', httpVersion: 'http/1.1', headers: [{ name: 'content-type', value: 'text/event-stream' }], cookies: [],
    content: { size: Buffer.byteLength(body), mimeType: 'text/event-stream', text: mojibake }, redirectURL: '', headersSize: -1, bodySize: -1 },
  cache: {}, timings: { send: 1, wait: 10, receive: 89 },
}] } });
const validate = (text: string, ...args: string[]) => runCli(['validate', 'chrome.har', ...args], () => new TextEncoder().encode(text));

describe('validate: what concerns the whole connection is the connection\'s', () => {
  it('a HAR entry\'s note: "the connection", first under its header line — not its last event', async () => {
    const lines = (await validate(har())).stdout.split('\n');
    expect(lines[0]).toBe('GET https://a.test/stream — agentscope, 2 events, 1 reply');
    expect(lines[1]).toMatch(/^ {2}info {4}capture\.notice +the connection: This HAR entry's body was saved decoded as Windows-1252/);
    expect(lines.join('\n')).not.toMatch(/event 1 \(REPLY_END\): This HAR entry/);
  });

  it('--json keeps its shape: index 0, as for a connection without events (no field of its own)', async () => {
    const [note] = JSON.parse((await validate(har(), '--json')).stdout) as Record<string, unknown>[];
    expect(note).toEqual({ file: 'chrome.har', connection: 'har:0', url: 'https://a.test/stream', code: 'capture.notice', severity: 'info', index: 0,
      message: expect.stringMatching(/^This HAR entry's body was saved decoded as Windows-1252/) });
  });

  it('an HTTP error with events: the connection\'s, not event 0\'s', async () => {
    const text = (await validate(har(500))).stdout;
    expect(text).toMatch(/^ {2}error {3}stream\.http-error +the connection: HTTP 500/m);
  });

  it('the import puts an entry\'s notes before its data (a HAR keeps no time to place them by)', () => {
    const kinds = importHar(JSON.parse(har())).records.map((r) => r.kind);
    expect(kinds).toEqual(['connection', 'notice', 'chunk', 'end']);
  });
});
