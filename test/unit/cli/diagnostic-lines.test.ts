import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../temp-dir.ts';
import { runCli } from '../../../src/cli/commands.ts';

// validate --github put every diagnostic of a connection on the capture file without a line: a reviewer could not
// jump to the record at fault. Each now carries the line of the record it is about (--github line=, --json "line",
// the text report's "line N"), and an SSE or NDJSON file the line its frame starts on.
const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');
const ev = (o: object, sep = ' ') => `data:${sep}${JSON.stringify({ id: 'e', created_at: '2026-03-01T09:00:00', metadata: {}, reply_id: 'r', ...o })}\n\n`;
const chunk = (conn: string, text: string, t: number) => JSON.stringify({ kind: 'chunk', conn, t, bytes: Buffer.byteLength(text), text });
const conn = (id: string, extra: object) => JSON.stringify({ kind: 'connection', id, transport: 'fetch', frameUrl: '', method: 'GET', url: `https://${id}.test/s`, requestHeaders: [], startTime: 1, ...extra });
const delta = ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'nope', delta: 'x' });

/** Two connections interleaved; a frame split over two records; a notice; how each connection ended. */
const LOG = [
  '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-03-01T09:00:00Z"}',
  conn('a', { status: 200, responseHeaders: [['content-type', 'text/event-stream']] }),
  conn('b', { method: 'POST', status: 401, statusText: 'Unauthorized', responseHeaders: [['content-type', 'application/json']] }),
  chunk('a', ev({ type: 'REPLY_START', session_id: 's', name: 'n', role: 'assistant' }), 5), // line 4
  chunk('b', '{"error":"token expired"}', 6),
  chunk('a', delta.slice(0, 40), 7), // line 6: the delta's frame begins…
  chunk('a', delta.slice(40) + ev({ type: 'TEXT_BLOCK_START', block_id: 'b2' }, ''), 8), // line 7: …and ends; a frame the client drops
  JSON.stringify({ kind: 'notice', t: 9, conn: 'a', level: 'warning', text: 'The tap could not record 2 chunks here.' }),
  JSON.stringify({ kind: 'end', conn: 'b', t: 10, state: 'complete' }),
  JSON.stringify({ kind: 'end', conn: 'a', t: 11, state: 'error', error: 'TypeError: network error' }), // line 10
].join('\n') + '\n';

describe('the line of each diagnostic', () => {
  it('--github: on the record at fault in a capture log — the one that completed the frame, the connection, its end, the notice', async () => {
    const dir = tempDir('rs-lines-');
    const file = path.join(dir, 'x.replyscope.ndjson');
    writeFileSync(file, LOG);
    const err = await run(process.execPath, [BIN, 'validate', '--github', file]).then(() => null, (e) => e);
    expect(err?.code).toBe(1);
    const placed = (err.stdout as string).split('\n').filter((l) => l.startsWith('::')).map((l) => /^::\w+ file=([^,]*),line=(\d+),title=replyscope ([^:]+)::/.exec(l)?.slice(1));
    expect(placed).toEqual([
      [file, '10', 'stream.network-error'],
      [file, '8', 'capture.notice'],
      [file, '7', 'sse.client-drops-frame'],
      [file, '7', 'as.unknown-block-id'],
      [file, '7', 'as.reply-not-ended'],
      [file, '3', 'stream.http-error'],
    ]);
    expect(err.stdout).toContain('  error   stream.http-error                the connection, line 3: HTTP 401 Unauthorized');
  });

  it('--json has "line" too, from standard input as well (where --github has no file to put a line on)', async () => {
    const bytes = new TextEncoder().encode(LOG);
    const json = JSON.parse((await runCli(['validate', '--json', '-'], () => bytes)).stdout) as { code: string; line?: number }[];
    expect(json.map((d) => [d.code, d.line])).toEqual([['stream.network-error', 10], ['capture.notice', 8], ['sse.client-drops-frame', 7],
      ['as.unknown-block-id', 7], ['as.reply-not-ended', 7], ['stream.http-error', 3]]);
    const github = await runCli(['validate', '--github', '-'], () => bytes);
    expect(github.stdout).toMatch(/^::error title=replyscope stream\.network-error::/m);
    expect(github.stdout).not.toContain('line=');
  });

  it('a note the reader adds (records out of order, a log cut short) is on the line it names, not on the last event', async () => {
    const lines = LOG.trimEnd().split('\n');
    lines.splice(9, 0, chunk('b', 'x', 10.5)); // line 10: data of b after its end (line 9)
    const log = `${lines.join('\n')}\n{"kind":"chunk","conn":"a","t`; // line 12, cut
    const json = JSON.parse((await runCli(['validate', '--json', 'x.replyscope.ndjson'], () => new TextEncoder().encode(log))).stdout) as { message: string; line?: number }[];
    expect(json.find((d) => d.message.startsWith('Capture log line 10: a chunk record after'))?.line).toBe(10);
    expect(json.find((d) => d.message.startsWith('The capture log ends in the middle of line 12'))?.line).toBe(12);
  });

  it('an SSE or NDJSON file: the line its frame starts on, past comments and blank lines; the end of the body on its last line', async () => {
    const sse = [': ping', '', ev({ type: 'REPLY_START', session_id: 's', name: 'n' }), '', '', ev({ type: 'TEXT_BLOCK_START', block_id: 'b' }),
      ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'x' }, ''), ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'zz', delta: 'x' }).trimEnd()].join('\n');
    const text = (await runCli(['validate', 'x.sse'], () => new TextEncoder().encode(sse))).stdout;
    expect(text).toMatch(/sse\.client-drops-frame +frame 3, after event 1 \(TEXT_BLOCK_START\), line 11: /);
    expect(text).toMatch(/sse\.unterminated-final-line +the end of the body, after event 1 \(TEXT_BLOCK_START\), line 14: /);
    expect(text).toMatch(/as\.reply-not-ended +event 1 \(TEXT_BLOCK_START\), line 8: /);
    const ndjson = '{"type":"start"}\n\n{"type":"text_delta","contentIndex":4,"delta":"x"}\n{"type":"done","reason":"stop"}\n';
    const json = JSON.parse((await runCli(['validate', '--json', 'x.ndjson'], () => new TextEncoder().encode(ndjson))).stdout) as { code: string; line?: number }[];
    expect(json.map((d) => [d.code, d.line])).toEqual([['pi.delta-on-missing-index', 3], ['pi.ignored-after-failure', 4]]);
    // A JSON array of events is no line per event: no line is claimed.
    const array = JSON.parse((await runCli(['validate', '--json', 'x.json'], () => new TextEncoder().encode(`[${ndjson.trim().split('\n').filter(Boolean).join(',\n')}]`))).stdout);
    expect(array.map((d: { line?: number }) => d.line)).toEqual([undefined, undefined]);
  });

  it('an SSE file with bytes that are not UTF-8, or lines ending in a lone CR: still the line each frame starts on', async () => {
    const enc = new TextEncoder();
    const start = enc.encode(ev({ type: 'REPLY_START', session_id: 's', name: 'n' }));
    const bad = Uint8Array.from([...enc.encode('data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"zz","delta":"h'), 0xc3, ...enc.encode('"}\n\n')]);
    const late = enc.encode(ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'zz', delta: 'y' }));
    const lineOf = async (bytes: Uint8Array, code: string) => {
      const json = JSON.parse((await runCli(['validate', '--json', 'x.sse'], () => bytes)).stdout) as { code: string; line?: number; index?: number }[];
      return json.filter((d) => d.code === code).map((d) => d.line);
    };
    // The bad byte is on line 3, the next frame on line 5: one bad byte left every diagnostic without a line.
    expect(await lineOf(Uint8Array.from([...start, ...bad, ...late]), 'as.unknown-block-id')).toEqual([3, 5]);
    // Lone CRs end lines in SSE and in an editor: the frames start on lines 2 and 4, not both on line 1.
    const cr = enc.encode([': ping', 'data: {"type":"NOPE"}', '', ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'zz', delta: 'x' }).trimEnd()].join('\r') + '\r\r');
    expect(await lineOf(cr, 'sse.client-cr-line-endings')).toEqual([2, 4]);
  });
});
