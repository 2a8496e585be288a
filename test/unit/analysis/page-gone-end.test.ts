// A stream that ended because its page went — it left (a reload, a link: the tap's "the page left while it streamed"),
// its frame was removed or its tab closed (the watcher's "its document went away") — is told as ending with its page,
// not as the page aborting it: stream.aborted said "the page aborted the request (the page left while it streamed …)",
// pi.stream-aborted "the page aborted the stream".
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { DOCUMENT_GONE_END, PAGE_LEFT_END } from '../../../src/core/capture/notices.ts';
import { endPiSession, feedPiText, startPiSession } from '../../../src/core/pi/session.ts';
import { captureOf, sseBody } from './support.ts';

const body = sseBody([{ id: 'e1', created_at: '2026-03-01T09:00:00', reply_id: 'r1', type: 'REPLY_START', session_id: 's', name: 'Friday' }]);

function abortedMessage(error: string | undefined): string | undefined {
  const records: CaptureRecord[] = [...captureOf([new TextEncoder().encode(body)], { state: 'open' }), { kind: 'end', conn: 'c1', t: 3_000, state: 'aborted', ...(error !== undefined ? { error } : {}) }];
  const a = new CaptureAnalyzer();
  a.push(records);
  return a.connections()[0].diagnostics.find((d) => d.code === 'stream.aborted')?.message;
}

describe('stream.aborted', () => {
  it('a stream that ended with its page says so', () => {
    const left = `${PAGE_LEFT_END}; the browser ended the stream with "TypeError: network error"`;
    expect(abortedMessage(left)).toBe(`the stream ended with its page: ${left}`);
    const gone = `${DOCUMENT_GONE_END} (the frame was removed or navigated, or its tab closed)`;
    expect(abortedMessage(gone)).toBe(`the stream ended with its page: ${gone}`);
  });

  it('the page\'s own abort is still the page\'s', () => {
    expect(abortedMessage('AbortError: signal is aborted without reason')).toBe('the page aborted the request (AbortError: signal is aborted without reason)');
    expect(abortedMessage(undefined)).toBe('the page aborted the request');
  });
});

describe('pi.stream-aborted', () => {
  const fed = feedPiText(startPiSession(), 'data: {"type":"start"}\n\ndata: {"type":"text_start","contentIndex":0}\n\n');
  const said = (error?: string) => endPiSession(fed.session, 'aborted', error).find((x) => x.code === 'pi.stream-aborted')?.message;

  it('a pi stream that ended with its page says so, as stream.aborted does', () => {
    // Was "the page aborted the stream: …" of a page that left, a frame removed or a tab closed.
    const left = `${PAGE_LEFT_END}; the browser ended the stream with "TypeError: network error"`;
    expect(said(left)).toBe(`the stream ended with its page: ${left} — the client yields an error event (reason "aborted")`);
    const gone = `${DOCUMENT_GONE_END} (the frame was removed or navigated, or its tab closed)`;
    expect(said(gone)).toBe(`the stream ended with its page: ${gone} — the client yields an error event (reason "aborted")`);
  });

  it('the page\'s own abort is still the page\'s', () => {
    expect(said('AbortError: signal is aborted without reason')).toBe('the page aborted the stream: the client yields an error event (reason "aborted")');
    expect(said()).toBe('the page aborted the stream: the client yields an error event (reason "aborted")');
  });
});
