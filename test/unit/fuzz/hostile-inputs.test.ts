// Regressions found by the protocol fuzz, pinned as exact inputs. The first block checks the whole pipeline (the
// containment in analysis keeps one hostile event from losing the capture); the second names the root causes in the
// protocol cores, where a recursive walk overflows the stack on a value JSON.parse reads without complaint.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.ts';
import { CaptureAnalyzer, analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { ConnectionView } from '../../../src/core/analysis/types.ts';
import { validateEvent } from '../../../src/core/agentscope/schema.ts';
import { applyPiProxyEvent, initialPiState, piStateSnapshot } from '../../../src/core/pi/proxy-reducer.ts';
import { captureOf, prototypeFingerprint } from '../../fuzz/pipeline-checks.ts';
import { recordsFor } from '../../fuzz/wire.ts';

const enc = new TextEncoder();
const DEEP = 10_000;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

function analyse(lines: string[]): ConnectionView {
  const body = enc.encode(lines.map((l) => `data: ${l}\n\n`).join(''));
  return analyzeCapture(captureOf(recordsFor([body], { contentType: 'text/event-stream', endState: 'complete' })))[0];
}

const AS = {
  start: '{"type":"REPLY_START","reply_id":"r","session_id":"s","name":"n"}',
  block: '{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b"}',
  delta: (d: string) => JSON.stringify({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: d }),
};

describe('hostile inputs through the whole pipeline', () => {
  it('an AgentScope event nested 10,000 deep fails alone: diagnosed, and the rest of the reply is rebuilt', () => {
    const v = analyse([AS.start, AS.block, `{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"x","metadata":${deepObject(DEEP)}}`, AS.delta('ok')]);
    expect(v.events).toHaveLength(4);
    expect(v.events[2].valid).toBe(false);
    expect(v.diagnostics.some((d) => d.index === 2 && d.severity === 'error')).toBe(true);
    const reply = v.replies[0];
    expect((reply.history.at(reply.history.length - 1) as { content: { text: string }[] }).content[0].text).toBe('ok');
  });

  it('a pi done whose usage is nested 10,000 deep keeps the connection readable, with a diagnostic', () => {
    const v = analyse(['{"type":"start"}', '{"type":"text_start","contentIndex":0}', '{"type":"text_delta","contentIndex":0,"delta":"hi"}', `{"type":"done","reason":"stop","usage":${deepObject(DEEP)}}`]);
    expect(v.events.map((e) => e.type)).toEqual(['start', 'text_start', 'text_delta', 'done']);
    // pi's client (JSON.parse) takes such a value; the schema does not: a diagnostic, and the snapshot still builds.
    expect(v.diagnostics.some((d) => d.index === 3 && d.code !== 'analysis.event-failed')).toBe(true);
    const h = v.replies[0].history;
    expect(() => h.at(h.length - 1)).not.toThrow();
  });

  it('validate exits 1 with diagnostics (not an internal error) on a deeply nested event', async () => {
    const body = enc.encode(`data: ${AS.start}\n\ndata: {"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b","metadata":${deepObject(DEEP)}}\n\n`);
    const r = await runCli(['validate', '--json', 'deep.sse'], () => body);
    expect(r.exitCode).toBe(1);
    // pydantic's JSON parser stops at 200 levels: the reference rejects the event, and so does the validator.
    expect((JSON.parse(r.stdout) as { code: string }[]).map((d) => d.code)).toContain('as.invalid-event');
  });

  it('__proto__ / constructor keys are reported as extras and pollute nothing', () => {
    const before = prototypeFingerprint();
    const v = analyse([AS.start, '{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b","__proto__":{"polluted":1},"metadata":{"constructor":{"prototype":{"polluted":1}},"__proto__":{"polluted":1}}}', AS.delta('t')]);
    expect(v.events[1].extras).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypeFingerprint()).toBe(before);
    const final = v.replies[0].history.at(2) as Record<string, unknown>;
    expect(Object.getPrototypeOf(final)).toBe(Object.prototype);
    expect(final.polluted).toBeUndefined();
  });

  it('event types named like Object.prototype members are unknown types, not lookups into Object.prototype', () => {
    const types = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
    const v = analyse([AS.start, ...types.map((type) => JSON.stringify({ type, reply_id: 'r', name: 'x' })), AS.block, AS.delta('ok')]);
    for (let i = 1; i <= types.length; i++) {
      expect(v.events[i].valid).toBe(false);
      expect(v.diagnostics.filter((d) => d.index === i).map((d) => d.code)).not.toContain('analysis.event-failed');
      expect(v.diagnostics.some((d) => d.index === i)).toBe(true);
    }
    expect((v.replies[0].history.at(v.replies[0].history.length - 1) as { content: { text: string }[] }).content[0].text).toBe('ok');
  });

  it('a lone-surrogate escape makes the AgentScope event invalid (as pydantic does) and is diagnosed', () => {
    const v = analyse([AS.start, AS.block, '{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"a\\ud800"}', AS.delta('b')]);
    expect(v.events[2].valid).toBe(false);
    expect(v.diagnostics.some((d) => d.index === 2)).toBe(true);
    expect((v.replies[0].history.at(3) as { content: { text: string }[] }).content[0].text).toBe('b');
  });

  it("pi streams' client-reading diagnostics name pi's client, not the AgentScope web UI", () => {
    const v = analyse(['{"type":"start"}', '{"type":"text_start","contentIndex":0}', '{not json', '{"type":"done","reason":"stop","usage":{}}']);
    const json = v.diagnostics.find((d) => d.code === 'sse.client-json-error');
    expect(json?.message).toMatch(/streamProxy/);
    expect(json?.message).not.toMatch(/AgentScope/);
  });

  it('live analysis (record by record) reports lines that arrive without completing a frame, like batch analysis', () => {
    const records = recordsFor([enc.encode('foo: 1\n'), enc.encode('bar: 2\n')], { contentType: 'text/event-stream', endState: 'open' });
    const live = new CaptureAnalyzer();
    for (const r of records) {
      live.push([r]);
      live.connections(); // the panel reads the view after every push
    }
    const codes = (v: ConnectionView) => v.diagnostics.map((d) => `${d.code}@${d.index}`);
    expect(codes(live.connections()[0])).toEqual(codes(analyzeCapture(captureOf(records))[0]));
    expect(codes(live.connections()[0]).filter((c) => c.startsWith('sse.ignored-line'))).toHaveLength(2);
  });

  // Found by the protocol fuzz (seed 2026113004, case 9035): normalising the older camelCase dialect recursed into
  // every value; one nested 100,000 deep overflowed the stack.
  it('a legacy (camelCase) event with a value nested 100,000 deep is diagnosed, not fatal', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const v = analyse(['{"type":"RUN_STARTED","replyId":"r","sessionId":"s","name":"n"}', `{"type":"REQUIRE_USER_CONFIRM","replyId":"r","toolCalls":${deep}}`,
      '{"type":"TEXT_BLOCK_START","replyId":"r","blockId":"b"}', '{"type":"TEXT_BLOCK_DELTA","replyId":"r","blockId":"b","delta":"ok"}']);
    expect(v.diagnostics.filter((d) => d.code === 'analysis.event-failed')).toEqual([]);
    expect(v.events[1].valid).toBe(false);
    expect((v.replies[0].history.at(v.replies[0].history.length - 1) as { content: { text: string }[] }).content[0].text).toBe('ok');
  });

  // A legacy (camelCase) event's free-form values are kept at any depth (agentscope-typescript reads them with
  // JSON.parse), and a TOOL_RESULT_END sending its metadata again is compared with the result's: the comparison
  // recursed and overflowed on a value nested 100,000 deep.
  it('a legacy TOOL_RESULT_END repeating metadata nested 100,000 deep: compared, not fatal', () => {
    const deep = (leaf: number) => `${'{"a":'.repeat(100_000)}${leaf}${'}'.repeat(100_000)}`;
    const end = (leaf: number) => `{"type":"TOOL_RESULT_END","replyId":"r","toolCallId":"t","state":"success","metadata":${deep(leaf)}}`;
    const v = analyse(['{"type":"RUN_STARTED","replyId":"r","sessionId":"s","name":"n"}', '{"type":"TOOL_RESULT_START","replyId":"r","toolCallId":"t","toolCallName":"x"}',
      end(1), end(1), end(2)]);
    expect(v.diagnostics.filter((d) => d.code === 'analysis.event-failed')).toEqual([]);
    expect(v.events.map((e) => e.valid)).toEqual([true, true, true, true, true]);
    // The same metadata again changes nothing; another value at the bottom does.
    expect(v.replies[0].stepStatus.slice(2)).toEqual(['changed', 'unchanged', 'changed']);
  });

  it('a legacy event whose type is nested 100,000 deep is an unknown type, quoted by its head', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const v = analyse(['{"type":"RUN_STARTED","replyId":"r","sessionId":"s","name":"n"}', `{"type":${deep},"replyId":"r"}`,
      '{"type":"TEXT_BLOCK_START","replyId":"r","blockId":"b"}', '{"type":"TEXT_BLOCK_DELTA","replyId":"r","blockId":"b","delta":"ok"}']);
    expect(v.diagnostics.filter((d) => d.code === 'analysis.event-failed')).toEqual([]);
    const unknown = v.diagnostics.filter((d) => d.index === 1 && d.code === 'as.unknown-event-type');
    expect(unknown.map((d) => d.message)).toEqual([`type: unknown event type ${'['.repeat(200)}…; the reference rejects it.`]);
    expect((v.replies[0].history.at(v.replies[0].history.length - 1) as { content: { text: string }[] }).content[0].text).toBe('ok');
  });

  // Found by the protocol fuzz (seed 2026113002, case 8036) and then looked for: regular expressions with a repeated
  // group take backtrack-stack room per repetition, and a multi-megabyte value overflowed them. The wire-delta
  // reading threw out of the body reader, failing the whole capture's analysis.
  it('AgentScope values of 9 MB as pydantic writes them: a text delta, a data chunk, an integer string', () => {
    const ev = (o: Record<string, unknown>) => JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', metadata: {}, ...o });
    const text = 'x'.repeat(9 * 1024 * 1024);
    const data = 'QUJD'.repeat(9 * 256 * 1024);
    const v = analyse([
      ev({ type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'n' }),
      ev({ type: 'TEXT_BLOCK_START', reply_id: 'r', block_id: 'b' }),
      ev({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: text }),
      ev({ type: 'TEXT_BLOCK_END', reply_id: 'r', block_id: 'b' }),
      ev({ type: 'DATA_BLOCK_START', reply_id: 'r', block_id: 'd', media_type: 'image/png' }),
      ev({ type: 'DATA_BLOCK_DELTA', reply_id: 'r', block_id: 'd', media_type: 'image/png', data }),
      ev({ type: 'DATA_BLOCK_DELTA', reply_id: 'r', block_id: 'd', media_type: 'image/png', data: 'QUJD' }),
      ev({ type: 'MODEL_CALL_END', reply_id: 'r', input_tokens: `1${'_1'.repeat(3 * 1024 * 1024)}`, output_tokens: 2 }),
    ]);
    expect(v.events).toHaveLength(8);
    expect(v.diagnostics.filter((d) => d.code === 'analysis.event-failed')).toEqual([]);
    const msg = v.replies[0].history.at(6) as { content: { text?: string; source?: { data?: string } }[] };
    expect(msg.content[0].text).toBe(text);
    expect(msg.content[1].source?.data).toBe(`${data}QUJD`);
  });

  // Found by the protocol fuzz (seed 20261130, cases 7178 and one more): describing a bad contentIndex in a diagnostic
  // ran String()/JSON.stringify over it, which recurse; the event was reported as one Replyscope could not analyse.
  describe('pi fields that String() and JSON.stringify cannot write out are diagnosed, not fatal', () => {
    const DEEP_ARRAY = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const NOT_TEXT = '{"toString":1}'; // String() throws a TypeError on it
    const failed = (v: ConnectionView) => v.diagnostics.filter((d) => d.code === 'analysis.event-failed').map((d) => d.index);
    const codesAt = (v: ConnectionView, i: number) => v.diagnostics.filter((d) => d.index === i).map((d) => d.code);
    const messagesAt = (v: ConnectionView, i: number) => v.diagnostics.filter((d) => d.index === i).map((d) => d.message).join(' | ');

    it.each([['nested 100,000 deep', DEEP_ARRAY, /nested too deeply to show/], ['with its own toString', NOT_TEXT, /not convertible to text/]])(
      'proxy form: a contentIndex %s',
      (_what, bad, shown) => {
        for (const [open, close] of [['{"type":"toolcall_start","contentIndex":0,"id":"t","toolName":"x"}', `{"type":"toolcall_end","contentIndex":${bad}}`],
          ['{"type":"text_start","contentIndex":0}', `{"type":"text_delta","contentIndex":${bad},"delta":"x"}`]]) {
          const v = analyse(['{"type":"start"}', open, close]);
          expect(failed(v)).toEqual([]);
          expect(codesAt(v, 2)).toContain('pi.missing-content-index');
          expect(messagesAt(v, 2)).toMatch(shown);
          // pi's client turns the index into a property key, which throws too: it fails, as the reference does.
          expect(codesAt(v, 2)).toContain('pi.client-exception');
        }
      },
    );

    it('proxy form: a first event whose type is nested 100,000 deep (the reference fails warning about it)', () => {
      const v = analyse([`{"type":${DEEP_ARRAY}}`, '{"type":"start"}']);
      expect(failed(v)).toEqual([]);
      expect(messagesAt(v, 0)).toContain(`begins with ${'['.repeat(80)}… instead of "start"`); // the head, cut to 80
      expect(messagesAt(v, 0)).toMatch(/the client threw "Maximum call stack size exceeded"/);
    });

    it('proxy form: an error event whose reason and errorMessage are nested 100,000 deep', () => {
      const v = analyse(['{"type":"start"}', `{"type":"error","reason":${DEEP_ARRAY},"errorMessage":${DEEP_ARRAY},"usage":{}}`]);
      expect(failed(v)).toEqual([]);
      expect(messagesAt(v, 1)).toMatch(/server error event \(\[… nested too deeply to show\]\): \[… nested too deeply to show\]/);
    });

    it('proxy form: tool-call arguments that are an array nested 100,000 deep', () => {
      const v = analyse(['{"type":"start"}', '{"type":"toolcall_start","contentIndex":0,"id":"t","toolName":"x"}',
        JSON.stringify({ type: 'toolcall_delta', contentIndex: 0, delta: DEEP_ARRAY }), '{"type":"toolcall_end","contentIndex":0}']);
      expect(failed(v)).toEqual([]);
      expect(codesAt(v, 3)).toContain('pi.toolcall-args-invalid');
      expect(messagesAt(v, 3)).toContain(`are JSON but not an object (${'['.repeat(40)})`);
    });

    it('assistant form: a partial message holding a value nested 100,000 deep, and a delta that cannot be text', () => {
      // The second block is compared as untouched on every event (a structural comparison that must not recurse).
      const partial = (text: string) => `{"role":"assistant","content":[{"type":"text","text":"${text}","extra":${DEEP_ARRAY}},{"type":"text","text":"","extra":${DEEP_ARRAY}}]}`;
      const v = analyse([`{"type":"start","partial":{"role":"assistant","content":[]}}`, `{"type":"text_start","contentIndex":0,"partial":${partial('')}}`,
        `{"type":"text_delta","contentIndex":0,"delta":"a","partial":${partial('a')}}`, `{"type":"text_delta","contentIndex":0,"delta":${NOT_TEXT},"partial":${partial('a')}}`]);
      expect(v.dialect).toBe('pi-assistant');
      expect(failed(v)).toEqual([]);
    });

    it('agent form: a message_update for a message whose role is nested 100,000 deep', () => {
      const v = analyse(['{"type":"agent_start"}', '{"type":"turn_start"}', `{"type":"message_start","message":{"role":${DEEP_ARRAY}}}`,
        `{"type":"message_update","message":{"role":${DEEP_ARRAY}}}`]);
      expect(v.dialect).toBe('pi-agent');
      expect(failed(v)).toEqual([]);
      expect(messagesAt(v, 3)).toMatch(/message_update for a \[… nested too deeply to show\] message/);
    });
  });

  it('quotes only the head of a large value in diagnostics and previews', () => {
    // Messages and previews used to quote a value whole (a multi-MB `type` made a multi-MB message per event) or
    // wrote all of it out to keep its first characters.
    const big = 'x'.repeat(2_000_000);
    const pi = analyse(['{"type":"start"}', JSON.stringify({ type: big }), JSON.stringify({ type: 'text_start', contentIndex: [big] })]);
    const longest = Math.max(...pi.diagnostics.map((d) => d.message.length));
    expect(pi.diagnostics.some((d) => d.message.includes(`"${'x'.repeat(60)}`))).toBe(true);
    expect(longest).toBeLessThan(1000);
    expect(pi.events[1].type).toBe(`${'x'.repeat(200)}…`); // the view's type; the raw text keeps all of it
    expect(pi.events[1].rawText).toContain(big);
    const as = analyse([AS.start, AS.block, JSON.stringify({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: { text: big } })]);
    expect(as.events[2].preview).toBe(`{"text":"${'x'.repeat(111)}…`);
  });

  it('pi agent-event streams: an event whose type is not an AgentEvent is invalid and diagnosed', () => {
    const v = analyse([
      '{"type":"agent_start"}',
      '{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"x"}',
      '{"type":"agent_end","messages":[]}',
    ]);
    expect(v.dialect).toBe('pi-agent');
    expect(v.events[1].valid).toBe(false);
    expect(v.diagnostics.filter((d) => d.index === 1).map((d) => d.code)).not.toEqual([]);
  });
});

// Root causes (owners: src/core/agentscope/schema.ts, src/core/pi/message-state.ts). JSON.parse reads these values;
// the recursive walks after it do not. Until fixed, analysis contains them as `analysis.event-failed`.
describe('protocol cores on deeply nested values', () => {
  it('AgentScope validateEvent does not overflow on 10,000-deep metadata (findExtras recursion)', () => {
    const raw = JSON.parse(`{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b","metadata":${deepObject(DEEP)}}`);
    expect(() => validateEvent(raw)).not.toThrow();
  });

  it('AgentScope validateEvent does not overflow on a type nested 100,000 deep (quoting it in "unknown event type")', () => {
    const r = validateEvent({ type: JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe('unknown-type');
  });

  it('pi snapshot does not overflow after a done with 10,000-deep usage (jsonRoundTrip recursion)', () => {
    let s = initialPiState(undefined);
    s = applyPiProxyEvent(s, { type: 'start' }).state;
    s = applyPiProxyEvent(s, JSON.parse(`{"type":"done","reason":"stop","usage":${deepObject(DEEP)}}`)).state;
    expect(() => piStateSnapshot(s)).not.toThrow();
  });
});
