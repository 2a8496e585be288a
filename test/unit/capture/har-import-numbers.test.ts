// A browser HAR's numbers are whatever its writer wrote: a status or a size with a fraction, or past what a number
// holds exactly. Whatever the import keeps of them must be what a capture log holds (integers there), or the log
// exported from the import is refused on re-import — a round trip that loses the file.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { importHar, writeHar } from '../../../src/core/capture/har.ts';
import { readCaptureLog, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import type { Capture, ConnectionRecord } from '../../../src/core/capture/model.ts';

const T0 = Date.parse('2026-11-29T21:00:00.000Z');
const sse = 'id: 1\ndata: {"type":"REPLY_START","reply_id":"r1"}\n\ndata: {"type":"TEXT_BLOCK_DELTA","delta":"hi"}\n\n';
const postText = '{"q":"hi"}';

function browserHar(status: unknown, bodySize: unknown, contentSize: unknown, transport = 'fetch') {
  return {
    log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [{
      startedDateTime: new Date(T0).toISOString(), time: 500, timings: { send: 0, wait: 40, receive: 460 }, _resourceType: transport,
      request: { method: 'POST', url: 'https://api.example/stream', headers: [{ name: 'accept', value: 'text/event-stream' }], bodySize, postData: { mimeType: 'application/json', text: postText } },
      response: { status, statusText: 'OK', headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { size: contentSize, mimeType: 'text/event-stream', text: sse } },
    }] },
  };
}

/** The capture's log written and read again, and its HAR of ours written and imported again: both must read. */
function roundTrips(cap: Capture): [Capture, Capture] {
  return [readCaptureLog(writeCaptureLog(cap)), importHar(JSON.parse(writeHar(cap)))];
}

const anyNumber = fc.oneof(
  fc.integer({ min: -2, max: 1000 }),
  fc.double({ min: -2, max: 1000, noNaN: true }),
  fc.double({ min: 1e15, max: 1e300, noNaN: true }),
  fc.constantFrom(200.5, 2 ** 53, 1e20, 99, 600, 0, -1),
);

describe('a browser HAR\'s status and sizes', () => {
  it('whatever they are, the import exports to a capture log (and a HAR) that imports again with the same records', () => {
    fc.assert(
      fc.property(anyNumber, anyNumber, anyNumber, fc.constantFrom('fetch', 'xhr'), (status, bodySize, contentSize, transport) => {
        const cap = importHar(browserHar(status, bodySize, contentSize, transport));
        for (const again of roundTrips(cap)) expect(again.records).toEqual(cap.records);
      }),
      { numRuns: 300 },
    );
  });

  it('a status that is no integer from 100 to 599 is said, and the response is kept without it; 0 and -1 (no response) are not said', () => {
    for (const unreal of [200.5, 1e20, 99, 600]) {
      const cap = importHar(browserHar(unreal, -1, sse.length));
      expect(cap.records[0]).not.toHaveProperty('status');
      expect(cap.records[0]).toMatchObject({ kind: 'connection', statusText: 'OK' });
      expect(cap.records).toContainEqual(expect.objectContaining({ kind: 'notice', conn: 'har:0', level: 'warning', text: `This HAR entry's response status ${unreal} is no HTTP status (an integer from 100 to 599): the response was imported without one.` }));
      expect(cap.records.filter((r) => r.kind === 'chunk').length).toBeGreaterThan(0);
    }
    for (const none of [0, -1]) {
      const cap = importHar(browserHar(none, -1, sse.length));
      expect(cap.records[0]).not.toHaveProperty('status');
      expect(cap.records.filter((r) => r.kind === 'notice')).toEqual([]);
    }
    expect(importHar(browserHar(200, -1, sse.length)).records[0]).toMatchObject({ status: 200 });
  });

  it('a fractional bodySize is a size rounded to whole bytes, read against its postData as any size is', () => {
    // (A whole JSON text shorter than its size is one whose credentials were masked: read whole, at the size sent.)
    const more = importHar(browserHar(200, 30.4, sse.length)).records[0] as ConnectionRecord;
    expect(more.requestBody).toEqual({ text: postText, size: 30 });
    const whole = importHar(browserHar(200, postText.length + 0.4, sse.length)).records[0] as ConnectionRecord;
    expect(whole.requestBody).toEqual({ text: postText, size: postText.length });
    // Past what a number holds exactly it is no size: not known, as -1 is.
    const huge = importHar(browserHar(200, 1e300, sse.length)).records[0] as ConnectionRecord;
    expect(huge.requestBody).toEqual({ text: postText, size: postText.length });
  });
});
