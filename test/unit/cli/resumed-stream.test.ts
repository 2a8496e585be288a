// The CLI on a capture log where a request resumed the stream of an earlier one (Last-Event-ID): validate and replay
// read the pair as the panel does — one reply continued, nothing the page never had reported — since both stand on
// the same core analysis.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.ts';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import { makeHeader, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';

const URL_ = 'https://agent.test/session/stream';
const event = (k: number, o: Record<string, unknown>) =>
  `id: ${k}\ndata: ${JSON.stringify({ id: `evt-${k}`, created_at: `2026-03-01T09:00:0${k}`, reply_id: 'r1', ...o })}\n\n`;
const FRAMES = [
  event(0, { type: 'REPLY_START', session_id: 's', name: 'Friday', role: 'assistant' }),
  event(1, { type: 'TEXT_BLOCK_START', block_id: 'b' }),
  event(2, { type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'Half ' }),
  event(3, { type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'and half.' }),
  event(4, { type: 'TEXT_BLOCK_END', block_id: 'b' }),
  event(5, { type: 'REPLY_END', session_id: 's' }),
];

/** `inQuery`: the second request sends the id as `?lastEventId=` (event-source-polyfill's way), no header. */
function records(lastEventId: string, inQuery = false): CaptureRecord[] {
  const conn = (id: string, t: number, headers: [string, string][], url = URL_): CaptureRecord => ({
    kind: 'connection', id, transport: 'fetch', frameUrl: 'https://agent.test/', method: 'GET', url, requestHeaders: headers,
    status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: t,
  });
  const chunk = (id: string, t: number, text: string): CaptureRecord => ({ kind: 'chunk', conn: id, t, bytes: text.length, text });
  return [
    conn('d:1', 1000, [['accept', 'text/event-stream']]),
    ...FRAMES.slice(0, 3).map((f, i) => chunk('d:1', 1001 + i, f)),
    { kind: 'end', conn: 'd:1', t: 1010, state: 'error', error: 'TypeError: network error' },
    inQuery ? conn('d:2', 2000, [['accept', 'text/event-stream']], `${URL_}?lastEventId=${lastEventId}`)
      : conn('d:2', 2000, [['accept', 'text/event-stream'], ['last-event-id', lastEventId]]),
    ...FRAMES.slice(3).map((f, i) => chunk('d:2', 2001 + i, f)),
    { kind: 'end', conn: 'd:2', t: 2010, state: 'complete' },
  ];
}

const log = (lastEventId: string) => writeCaptureLog({ header: makeHeader('test'), records: records(lastEventId) });
const cli = (args: string[], text: string) => runCli([...args, 'capture.replyscope.ndjson'], () => new TextEncoder().encode(text));

describe('the CLI on a resumed stream', () => {
  it('validate: the resuming connection says what it continues, and nothing fails --fail-on warning', async () => {
    const out = await cli(['validate', '--fail-on', 'warning'], log('2'));
    expect(out.stdout).not.toMatch(/as\.foreign-reply-id|as\.unknown-block-id/);
    expect(out.stdout).toContain('info    stream.resumed                   event 0 (TEXT_BLOCK_DELTA), line 8: resumes the stream of connection d:1 from id "2" (its frame 2, after 3 events): reply r1 continues here from where the page had it');
    // The first connection did fail: that stays an error (exit 1), its "never ended" findings are info.
    expect(out.stdout).toMatch(/error\s+stream\.network-error/);
    expect(out.stdout).toMatch(/info\s+as\.reply-not-ended .*The page's stream goes on: connection d:2 resumed it from id "2"\./);
    expect(out.exitCode).toBe(1);
    const ignoringTheCut = await cli(['validate', '--fail-on', 'warning', '--ignore', 'stream.network-error'], log('2'));
    expect(ignoringTheCut.exitCode).toBe(0);
  });

  it('validate: an id no connection carried is told, and the orphan findings with it', async () => {
    const out = await cli(['validate', '--json'], log('99'));
    const found = JSON.parse(out.stdout) as { connection: string; code: string; severity: string }[];
    expect(found.filter((d) => d.connection === 'd:2').map((d) => `${d.severity} ${d.code}`)).toEqual(expect.arrayContaining(['info stream.resumed-uncaptured', 'warning as.foreign-reply-id']));
  });

  it('replay: the resuming connection\'s reply is the page\'s whole message, as the panel\'s analysis has it', async () => {
    const out = await cli(['replay'], log('2'));
    const conns = JSON.parse(out.stdout);
    expect(conns[1].resumes).toEqual({ connection: 'd:1', lastEventId: '2' });
    expect(conns[1].replies[0]).toMatchObject({ id: 'r1', continuesConnection: 'd:1', events: 3 });
    expect(conns[1].replies[0].final.content[0].text).toBe('Half and half.');
    const analyzer = new CaptureAnalyzer();
    analyzer.push(records('2'));
    const reply = analyzer.connections()[1].replies[0];
    expect(conns[1].replies[0].final).toEqual(JSON.parse(JSON.stringify(reply.history.at(reply.history.length - 1))));
    expect(out.stderr).toMatch(/^note: 1 reply went on on a connection that resumed the stream \(Last-Event-ID, "continuesConnection"\)/);
  });

  it('replay and validate: a request that sent the id in its query says so', async () => {
    const text = writeCaptureLog({ header: makeHeader('test'), records: records('2', true) });
    const conns = JSON.parse((await cli(['replay'], text)).stdout);
    expect(conns[1].resumes).toEqual({ connection: 'd:1', lastEventId: '2', query: 'lastEventId' });
    expect(conns[1].replies[0].final.content[0].text).toBe('Half and half.');
    expect((await cli(['validate'], text)).stdout).toContain('resumes the stream of connection d:1 from the query\'s lastEventId "2" (its frame 2, after 3 events)');
  });
});
