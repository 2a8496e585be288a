// The scrubber reads a long reply step by step (bubble and diff, stepState) without leaving a flat copy of the text
// behind in every checkpoint the history keeps (see src/core/history/readable-copies.ts). Before, reading every step
// of a 60 MB reply left ~2.7 GB in the panel and Chrome killed it. Measured as heap growth after a full collection:
// the difference this guards is a flat copy per checkpoint (~10× the text here) against none.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import type { ReplyView } from '../../../src/core/analysis/types.ts';
import { ReadableCopies } from '../../../src/core/history/readable-copies.ts';
import { stepState } from '../../../panel/components/StepDetail.tsx';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const DELTAS = 320;

/** A chunk record of ASCII text, a flat string as a page's decoder makes it (not a rope). */
const chunk = (conn: string, t: number, text: string): CaptureRecord =>
  ({ kind: 'chunk', conn, t, text: Buffer.from(text, 'latin1').toString('latin1'), bytes: text.length });
const DELTA_CHARS = 8 * 1024;

/** One reply of DELTAS text deltas, its chunks flat strings as a page's decoder makes them (not ropes). */
function longReply(id: string): ReplyView {
  const records: CaptureRecord[] = [{
    kind: 'connection', id, transport: 'fetch', frameUrl: 'http://x/', method: 'GET', url: `http://x/${id}`, requestHeaders: [],
    status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']], startTime: 0, responseTime: 1,
  }];
  records.push(chunk(id, 1, 'data: {"type":"REPLY_START","reply_id":"r","session_id":"s","name":"n"}\n\ndata: {"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b"}\n\n'));
  for (let i = 0; i < DELTAS; i++) {
    const delta = String.fromCharCode(97 + (i % 26)).repeat(DELTA_CHARS);
    records.push(chunk(id, 2 + i, `data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"${delta}"}\n\n`));
  }
  records.push(chunk(id, DELTAS + 2, 'data: {"type":"REPLY_END","reply_id":"r","session_id":"s"}\n\n'));
  records.push({ kind: 'end', conn: id, t: DELTAS + 3, state: 'complete' });
  const analyzer = new CaptureAnalyzer();
  analyzer.push(records);
  const reply = analyzer.connections()[0].replies[0];
  expect(reply.history.length).toBe(DELTAS + 3);
  return reply;
}

const textOf = (m: unknown) => (m as { content: { text: string }[] }).content[0]?.text ?? '';

/**
 * Every step as the scrubber shows it; returns the characters the diffs say were appended. A function of its own,
 * so the last step's message is not still on the caller's stack when the heap is measured.
 */
function readEveryStep(reply: ReplyView): number {
  let appended = 0;
  for (let k = 0; k < reply.history.length; k++) {
    const s = stepState(reply, k);
    expect(s.error).toBeUndefined();
    // What the bubble reads: the text's last characters (a bounded window), and what the diff says was appended.
    expect(textOf(s.message).slice(-DELTA_CHARS).length).toBe(k >= 2 ? DELTA_CHARS : 0);
    for (const c of s.changes) if (c.op === 'append') appended += c.appended.length;
  }
  return appended;
}

describe('reading every step of a long reply', () => {
  it('stepState (bubble and diff) leaves the history as it was: no flat copy per checkpoint', () => {
    const reply = longReply('long');
    const small = shortReply();
    const before = heapUsed();
    const appended = readEveryStep(reply);
    expect(appended).toBe(DELTAS * DELTA_CHARS);
    // A read of another reply lets the last read's copies go (stepState keeps those for reuse by the next).
    stepState(small, 1);
    const grown = heapUsed() - before;
    expect(grown).toBeLessThan(DELTAS * DELTA_CHARS); // was ~10× that: the text once per checkpoint (20 of them), half of it on average
  });

  it('the copies are equal to the history\'s messages; one copy per message, reused by the next read, let go after', () => {
    const reply = longReply('eq');
    const copies = new ReadableCopies();
    for (const k of [5, 16, 17, 300, DELTAS + 2]) {
      copies.read(() => {
        const prev = copies.of(reply.history.at(k - 1));
        const message = copies.of(reply.history.at(k));
        expect(message).toEqual(reply.history.at(k));
        expect(message).not.toBe(reply.history.at(k));
        expect(prev).toEqual(reply.history.at(k - 1));
      });
    }
    const last = reply.history.at(DELTAS + 2);
    const a = copies.read(() => {
      const first = copies.of(last);
      expect(copies.of(last)).toBe(first);
      return first;
    });
    // The next read reuses it (a diff sees an unchanged block by identity); one that does not look at it lets it go.
    expect(copies.read(() => copies.of(last))).toBe(a);
    copies.read(() => copies.of(undefined));
    const again = copies.read(() => copies.of(last));
    expect(again).not.toBe(a);
    expect(again).toEqual(a);
  });

  it('copies the strings streaming builds at any place in a block: a tool result\'s output items, a pi tool call; an own "__proto__" key stays a key', () => {
    const long = 'x'.repeat(5000);
    const block = JSON.parse(`{"type":"tool_result","id":"t","__proto__":{"text":"${long}"},"output":[{"type":"text","text":"${long}"},{"type":"text","text":"short"}]}`);
    const pi = { role: 'assistant', content: [{ type: 'toolCall', id: 'c', partialJson: long, arguments: {} }, { type: 'text', text: 'short' }] };
    const copies = new ReadableCopies();
    const msg = copies.of({ id: 'm', content: [block] }) as { content: Record<string, unknown>[] };
    const own = msg.content[0];
    expect(own).not.toBe(block); // its long strings are the copy's own
    expect(own).toEqual(block);
    expect(Object.getPrototypeOf(own)).toBe(Object.prototype);
    expect(Object.keys(own)).toEqual(Object.keys(block));
    const out = own.output as unknown[];
    expect(out[0]).not.toBe(block.output[0]);
    expect(out[1]).toBe(block.output[1]); // nothing long: shared
    const p = copies.of(pi);
    expect(p).toEqual(pi);
    expect(p.content[0]).not.toBe(pi.content[0]);
    expect(p.content[1]).toBe(pi.content[1]);
    // A message whose strings are all short is handed back as it is.
    const short = { content: [{ type: 'text', text: 'hello' }] };
    expect(copies.of(short)).toBe(short);
    expect(copies.of(undefined)).toBeUndefined();
  });
});

/** A reply of one short delta: reading it moves stepState's copies on. */
function shortReply(): ReplyView {
  const records: CaptureRecord[] = [{
    kind: 'connection', id: 's', transport: 'fetch', frameUrl: 'http://x/', method: 'GET', url: 'http://x/s', requestHeaders: [],
    status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']], startTime: 0, responseTime: 1,
  }, chunk('s', 1, 'data: {"type":"REPLY_START","reply_id":"q","session_id":"s","name":"n"}\n\ndata: {"type":"TEXT_BLOCK_START","reply_id":"q","block_id":"b"}\n\ndata: {"type":"TEXT_BLOCK_DELTA","reply_id":"q","block_id":"b","delta":"hi"}\n\n')];
  const analyzer = new CaptureAnalyzer();
  analyzer.push(records);
  return analyzer.connections()[0].replies[0];
}
