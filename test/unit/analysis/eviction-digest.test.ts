import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { EvictionDigest } from '../../../src/core/analysis/eviction-digest.ts';
import type { ConnectionView } from '../../../src/core/analysis/types.ts';
import type { CaptureRecord, ChunkRecord, ConnectionRecord, EvictionRecord } from '../../../src/core/capture/model.ts';
import { parseRecord } from '../../../src/core/capture/schemas.ts';
import { redactCapture } from '../../../src/core/capture/redact.ts';
import { captureOf, cut, loadCases, sseBody } from './support.ts';

// Eviction keeps what was evicted *derived*: a capture cut at any chunk, its head digested and the rest analysed
// from the digest, must give every reply exactly the messages the analysis of the whole capture gives.

const HEADER = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;
const analyse = (records: CaptureRecord[]): ConnectionView => analyzeCapture({ header: HEADER, records })[0];

/** Texts with multi-byte characters (split across chunks by the cuts) and JSON-hostile characters. */
const textArb = fc.array(fc.constantFrom('The ', 'answer ', 'is ', '42', '. ', 'ü', '日本語', '🙂', '"q"', '\\', '\n', 'é'), { minLength: 1, maxLength: 12 })
  .map((p) => p.join(''));

interface ReplySpec { thinking: string[]; text: string[]; tool?: { args: string[]; result: string[] } }
const replyArb: fc.Arbitrary<ReplySpec> = fc.record({
  thinking: fc.array(textArb, { maxLength: 4 }),
  text: fc.array(textArb, { minLength: 1, maxLength: 12 }),
  tool: fc.option(fc.record({ args: fc.constant(['{"city": ', '"Par', 'is"}']), result: fc.array(textArb, { minLength: 1, maxLength: 4 }) }), { nil: undefined }),
});

/** A realistic AgentScope session stream: replies back to back, CUSTOM notes between them, some events without a clock. */
function sessionEvents(replies: ReplySpec[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let n = 0;
  // Python isoformat; the clock steps back now and then (the lifecycle reports it, also across the eviction point).
  const at = () => `${new Date(Date.UTC(2026, 0, 2) + 1000 * (n++ % 37)).toISOString().slice(0, -1)}456`;
  replies.forEach((spec, r) => {
    const reply_id = `reply-${r}`;
    const e = (type: string, extra: Record<string, unknown> = {}, stamped = true) =>
      out.push({ type, reply_id, ...(stamped ? { created_at: at() } : {}), ...extra });
    e('REPLY_START', { session_id: 's', name: 'Friday', role: 'assistant' });
    e('MODEL_CALL_START', { model_name: 'qwen-max' });
    if (spec.thinking.length) {
      e('THINKING_BLOCK_START', { block_id: `th-${r}` }, false); // block stamped by the clock (arrival time)
      for (const d of spec.thinking) e('THINKING_BLOCK_DELTA', { block_id: `th-${r}`, delta: d });
      e('THINKING_BLOCK_END', { block_id: `th-${r}` });
    }
    e('TEXT_BLOCK_START', { block_id: `tx-${r}` });
    for (const d of spec.text) e('TEXT_BLOCK_DELTA', { block_id: `tx-${r}`, delta: d });
    e('TEXT_BLOCK_END', { block_id: `tx-${r}` });
    if (spec.tool) {
      const tool_call_id = `call-${r}`;
      e('TOOL_CALL_START', { tool_call_id, tool_call_name: 'weather' });
      for (const d of spec.tool.args) e('TOOL_CALL_DELTA', { tool_call_id, delta: d });
      e('TOOL_CALL_END', { tool_call_id });
      e('TOOL_RESULT_START', { tool_call_id, tool_call_name: 'weather' });
      for (const d of spec.tool.result) e('TOOL_RESULT_TEXT_DELTA', { tool_call_id, delta: d });
      // No block_id: the result's data block gets a generated id — the clock must number it like the full stream.
      e('TOOL_RESULT_DATA_DELTA', { tool_call_id, media_type: 'image/png', data: 'iVBORw0KGgo=' }, false);
      e('TOOL_RESULT_END', { tool_call_id, state: 'success' });
    }
    e('MODEL_CALL_END', { input_tokens: 10 + r, output_tokens: 20 + r });
    e('REPLY_END', { session_id: 's' });
    out.push({ type: 'CUSTOM', name: 'session_updated', value: { replies: r + 1 } });
  });
  return out;
}

/** The capture as the relay's snapshot gives it after evicting the first `k` chunks: digest in the eviction record. */
function afterEviction(records: CaptureRecord[], k: number): { records: CaptureRecord[]; record: EvictionRecord } {
  const conn = records[0] as ConnectionRecord;
  const chunks = records.filter((r): r is ChunkRecord => r.kind === 'chunk');
  const digest = new EvictionDigest(conn);
  for (const c of chunks.slice(0, k)) digest.push(c);
  const ev: EvictionRecord = {
    kind: 'evicted', conn: conn.id, t: chunks[k - 1].t, chunks: k, messages: 0,
    bytes: chunks.slice(0, k).reduce((n, c) => n + c.bytes, 0), derived: digest.derived(),
  };
  // Through JSON and the capture log's strict schema, as it travels to the panel and into exported logs.
  const record = parseRecord(JSON.parse(JSON.stringify(ev))) as EvictionRecord;
  return { records: [conn, record, ...records.slice(1).filter((r) => r.kind !== 'chunk' || chunks.indexOf(r) >= k)], record };
}

describe('eviction keeps the evicted part derived', () => {
  it('AgentScope session cut at any chunk: every reply continues to the same messages as the full analysis', () => {
    fc.assert(
      fc.property(fc.array(replyArb, { minLength: 2, maxLength: 4 }), fc.array(fc.nat(), { minLength: 3, maxLength: 40 }), fc.nat(),
        (replies, cuts, pick) => {
          const body = new TextEncoder().encode(sseBody(sessionEvents(replies)));
          const records = captureOf(cut(body, cuts), { id: 'as' });
          const nChunks = records.filter((r) => r.kind === 'chunk').length;
          if (nChunks < 2) return;
          const k = 1 + (pick % (nChunks - 1));
          const full = analyse(records);
          const { records: rest, record } = afterEviction(records, k);
          const part = analyse(rest);
          const derived = record.derived!;
          const E = derived.events;

          expect(part.dialect).toBe('agentscope');
          expect(part.evictedEvents).toBe(E);
          expect(E + part.events.length).toBe(full.events.length);
          expect(part.diagnostics.find((d) => d.code === 'stream.evicted')?.message).toBe(`evicted ${E} events before this point (memory cap)`);
          // The same events, with the same per-event diagnostics (no orphans, unknown blocks, garbage lines).
          part.events.forEach((e, i) => {
            expect([e.type, e.replyId, e.diagnostics.map((d) => d.code)]).toEqual([full.events[E + i].type, full.events[E + i].replyId, full.events[E + i].diagnostics.map((d) => d.code)]);
          });
          expect(part.diagnostics.filter((d) => d.code.startsWith('sse.'))).toEqual([]);
          expect(part.replies.some((r) => r.orphan)).toBe(false);

          for (const f of full.replies) {
            const before = f.eventIndices.filter((i) => i < E).length;
            const p = part.replies.find((r) => r.id === f.id);
            const fullFinal = f.history.at(f.history.length - 1);
            if (!p) {
              // Every event of this reply was evicted: its digest holds the final message.
              expect(before).toBe(f.eventIndices.length);
              expect(derived.replies.find((r) => r.id === f.id)?.message).toEqual(fullFinal);
              continue;
            }
            expect(p.eventIndices.map((i) => i + E)).toEqual(f.eventIndices.slice(before));
            // A reply that began in the evicted head says so (its history starts from the digest's message).
            expect(p.continuesEviction ?? false).toBe(before > 0);
            // Its first token came before the cut: not known (a time from the first kept step would mislead).
            if (before > 0) expect(p.timeToFirstTokenMs).toBeUndefined();
            else expect(p.timeToFirstTokenMs).toBe(f.timeToFirstTokenMs);
            expect(p.history.initial).toEqual(before > 0 ? f.history.at(before - 1) : f.history.initial);
            for (let j = 0; j < p.history.length; j++) expect(p.history.at(j)).toEqual(f.history.at(before + j));
            expect([p.name, p.role, p.finishedReason]).toEqual([f.name, f.role, f.finishedReason]);
          }
        }),
      { seed: 20261129, numRuns: 40 },
    );
  });

  it('pi proxy stream cut at any chunk: the client state continues to the same final message', () => {
    const c = loadCases('pi').find((x) => x.name === 'done_toolUse')!;
    const text = Array.isArray(c.input.raw) ? c.input.raw.join('') : sseBody(c.input.events);
    const body = new TextEncoder().encode(text);
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 2, maxLength: 12 }), fc.nat(), (cuts, pick) => {
        const records = captureOf(cut(body, cuts), { requestBody: c.input.client });
        const nChunks = records.filter((r) => r.kind === 'chunk').length;
        if (nChunks < 2) return;
        const k = 1 + (pick % (nChunks - 1));
        const full = analyse(records);
        const { records: rest, record } = afterEviction(records, k);
        if (record.derived!.events === 0) return; // nothing read yet: a plain continuation
        expect(record.derived!.pi).toMatchObject({ derived: true });
        const part = analyse(rest);
        expect(part.dialect).toBe('pi-proxy');
        const fh = full.replies[0].history;
        const ph = part.replies[0].history;
        expect(ph.at(ph.length - 1)).toEqual(fh.at(fh.length - 1));
        expect(part.replies[0].continuesEviction).toBe(true);
        expect(part.diagnostics.filter((d) => d.severity === 'error')).toEqual(full.diagnostics.filter((d) => d.severity === 'error'));
      }),
      { seed: 7, numRuns: 15 },
    );
  });

  // Redacting an evicted capture for a bug report must not change what analysis finds in it: the unfinished line
  // continues in the first kept chunk (it was masked in two halves, keys included: that event was lost and an
  // "unknown event type None" reported), and the pi client state is masked, not dropped (the analysis then restarted
  // the client from nothing: "delta on a block never started", a failed client, an empty reply).
  const codes = (v: ConnectionView) => v.diagnostics.map((d) => `${d.severity} ${d.code}`).sort();
  const redacted = (records: CaptureRecord[]) => redactCapture({ header: HEADER, records }, { textContent: true }).records.filter((r) => r.kind !== 'notice');

  it('redacted after an eviction mid-line: the same events and diagnostics, nothing of the text left', () => {
    const events = sessionEvents([{ thinking: ['secret thinking'], text: ['Hello ', 'secret ', 'world'] }, { thinking: [], text: ['Again secret'] }]);
    const body = new TextEncoder().encode(sseBody(events));
    const records = captureOf(cut(body, Array.from({ length: 40 }, (_, i) => 53 * (i + 1))));
    let midLine = 0;
    for (let k = 1; k < 30; k++) {
      const { records: rest, record } = afterEviction(records, k);
      if (record.derived!.carry === '') continue;
      midLine++;
      const plain = analyse(rest);
      const masked = redacted(rest);
      expect(JSON.stringify(masked)).not.toMatch(/secret|Hello|Again/);
      const view = analyse(masked);
      expect(view.events.map((e) => e.type)).toEqual(plain.events.map((e) => e.type));
      expect(codes(view)).toEqual(codes(plain));
    }
    expect(midLine).toBeGreaterThan(10);
  });

  it('redacted after an eviction: a pi proxy stream keeps its (masked) client state', () => {
    const c = loadCases('pi').find((x) => x.name === 'done_toolUse')!;
    const text = Array.isArray(c.input.raw) ? c.input.raw.join('') : sseBody(c.input.events);
    const records = captureOf(cut(new TextEncoder().encode(text), Array.from({ length: 12 }, (_, i) => 41 * (i + 1))), { requestBody: c.input.client });
    const { records: rest, record } = afterEviction(records, 4);
    expect(record.derived!.pi).toMatchObject({ derived: true });
    const plain = analyse(rest);
    const view = analyse(redacted(rest));
    expect(view.replies[0].continuesEviction).toBe(true);
    expect(codes(view)).toEqual(codes(plain));
    expect(view.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // The same message, its text masked: the same blocks, the same lengths.
    const last = (v: ConnectionView) => v.replies[0].history.at(v.replies[0].history.length - 1) as { content: { type: string; text?: string }[] };
    expect(last(view).content.map((b) => [b.type, b.text?.length])).toEqual(last(plain).content.map((b) => [b.type, b.text?.length]));
  });

  it('an old log without a digest resyncs to the first frame boundary instead of reading half a line', () => {
    const events = sessionEvents([{ thinking: [], text: ['Hello ', 'world'] }, { thinking: [], text: ['Again'] }]);
    const body = sseBody(events);
    const at = body.indexOf('Hello'); // cut in the middle of a data line
    const records = captureOf([new TextEncoder().encode(body.slice(0, at)), new TextEncoder().encode(body.slice(at))], { id: 'old' });
    const [conn, first, ...rest] = records;
    const old: EvictionRecord = { kind: 'evicted', conn: 'old', t: 1, chunks: 1, messages: 0, bytes: (first as ChunkRecord).bytes };
    const part = analyse([conn, old, ...rest]);
    // One chunk went, holding how many events is not known: not "evicted 1 events".
    expect(part.evictedRecordsOnly).toBe(true);
    expect(part.diagnostics.find((d) => d.code === 'stream.evicted')?.message).toBe('evicted 1 chunks or messages before this point (memory cap), without a digest: how many events they held is not known');
    expect(part.events.some((e) => e.type === '(not JSON)')).toBe(false);
    expect(part.diagnostics.filter((d) => d.code.startsWith('sse.'))).toEqual([]);
    // The frame after the cut is the first one read; the second reply is whole.
    expect(part.events[0].type).toBe('TEXT_BLOCK_DELTA');
    const second = part.replies.find((r) => r.id === 'reply-1')!;
    const msg = second.history.at(second.history.length - 1) as { content: { text?: string }[] };
    expect(msg.content.map((b) => b.text)).toEqual(['Again']);
  });

  it('what the panel\'s Clear dropped of an open stream is said as Clear\'s, not the memory cap\'s', () => {
    const events = sessionEvents([{ thinking: [], text: ['Hello ', 'world'] }, { thinking: [], text: ['Again'] }]);
    const chunks = events.map((e) => new TextEncoder().encode(sseBody([e])));
    const records = captureOf(chunks, { id: 'c' });
    const { records: rest, record } = afterEviction(records, 4);
    const said = (cleared?: number) => {
      const ev = parseRecord(JSON.parse(JSON.stringify({ ...record, ...(cleared !== undefined ? { cleared } : {}) }))) as EvictionRecord;
      const view = analyse([rest[0], ev, ...rest.slice(2)]);
      return { by: view.evictedBy, message: view.diagnostics.find((d) => d.code === 'stream.evicted')?.message };
    };
    const E = record.derived!.events;
    expect(said()).toEqual({ by: 'cap', message: `evicted ${E} events before this point (memory cap)` });
    // Was "(memory cap)" for a capture that never came near the cap: the user pressed Clear with the stream open.
    expect(said(4)).toEqual({ by: 'clear', message: `evicted ${E} events before this point (Clear, the stream still open)` });
    expect(said(1)).toEqual({ by: 'both', message: `evicted ${E} events before this point (memory cap and Clear)` });
  });

  it('digest memory is per reply, not per event: a long stream digests to one message per reply', () => {
    const spec: ReplySpec = { thinking: [], text: Array.from({ length: 2000 }, (_, i) => `w${i} `) };
    const records = captureOf([new TextEncoder().encode(sseBody(sessionEvents([spec])))], { id: 'long' });
    const digest = new EvictionDigest(records[0] as ConnectionRecord);
    digest.push(records[1] as ChunkRecord);
    const d = digest.derived();
    expect(d.events).toBe(2000 + 7);
    expect(d.replies).toHaveLength(1);
    expect(d.carry).toBe('');
    const content = d.replies[0].message.content as { text: string }[];
    expect(content[0].text).toBe(spec.text.join(''));
    expect(d.replies[0].ended).toBe(true);
  });
});
