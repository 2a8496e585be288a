import { describe, expect, it } from 'vitest';
import { EvictionDigest, MAX_DERIVED_CHARS, MAX_GROWING_CHARS } from '../../../src/core/analysis/eviction-digest.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { ChunkRecord, ConnectionRecord, EvictionRecord, MessageRecord } from '../../../src/core/capture/model.ts';
import { captureOf } from './support.ts';
import { retainedChars } from '../retained.ts';

// One endless reply must not make the derived state grow without limit: it serves a memory cap.
describe('EvictionDigest stays bounded on one endless reply', () => {
  it('keeps the newest part of an over-long text behind a marker', () => {
    const ev = (o: object) => `data: ${JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', reply_id: 'r', ...o })}\n\n`;
    const piece = 'x'.repeat(4095) + '\n';
    let body = ev({ type: 'REPLY_START', session_id: 's', name: 'n' }) + ev({ type: 'TEXT_BLOCK_START', block_id: 'b' });
    const deltas = Math.ceil((3 * MAX_DERIVED_CHARS) / piece.length);
    for (let i = 0; i < deltas; i++) body += ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: i === deltas - 1 ? 'THE END' : piece });
    const records = captureOf([new TextEncoder().encode(body)].flatMap((b) => {
      const out: Uint8Array[] = [];
      for (let i = 0; i < b.length; i += 65536) out.push(b.subarray(i, i + 65536));
      return out;
    }), { state: 'open' });
    const digest = new EvictionDigest(records[0] as ConnectionRecord);
    for (const r of records.slice(1)) digest.push(r as ChunkRecord);
    const derived = digest.derived();
    const text = (derived.replies[0].message as { content: { text: string }[] }).content[0].text;
    expect(text.length).toBeLessThan(MAX_DERIVED_CHARS + 100);
    // Capped after every record, the marker still counts the original text's characters left out (it once counted
    // only the last cap's, the earlier marker's characters among them).
    const full = piece.repeat(deltas - 1) + 'THE END';
    const marker = `[… ${full.length - MAX_DERIVED_CHARS} older characters evicted …]`;
    expect(text).toBe(marker + full.slice(full.length - MAX_DERIVED_CHARS));
    expect(JSON.stringify(derived).length).toBeLessThan(2 * MAX_DERIVED_CHARS);
  });

  // The digest cuts a text late while it is fed (cutting after every record copied the whole kept text per record)
  // and exactly when written out: whenever it is written, and however the deltas fall, the text is the same.
  it.each([3001, 65_537])('written out at any point, a text and a data block are cut exactly (deltas of %i)', (size) => {
    const conn: ConnectionRecord = { kind: 'connection', id: 'c', transport: 'eventsource', frameUrl: 'https://a.test/', method: 'GET', url: 'https://a.test/s', requestHeaders: [], startTime: 1 };
    const digest = new EvictionDigest(conn);
    const ev = (o: object): MessageRecord => ({ kind: 'message', conn: 'c', t: 2, type: 'message', data: JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', reply_id: 'r', ...o }), lastEventId: '' });
    digest.push(ev({ type: 'REPLY_START', session_id: 's', name: 'n' }));
    digest.push(ev({ type: 'TEXT_BLOCK_START', block_id: 'b' }));
    digest.push(ev({ type: 'DATA_BLOCK_START', block_id: 'img', media_type: 'image/png' }));
    let full = '';
    let data = '';
    for (let i = 0; full.length < 3 * MAX_DERIVED_CHARS; i++) {
      const piece = String.fromCharCode(97 + (i % 26)).repeat(size - 1) + '\n';
      full += piece;
      digest.push(ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: piece }));
      const b64 = 'QUJD'.repeat(Math.ceil(size / 4));
      data += b64;
      digest.push(ev({ type: 'DATA_BLOCK_DELTA', block_id: 'img', media_type: 'image/png', data: b64 }));
      if (i % 97 !== 0 && full.length < 3 * MAX_DERIVED_CHARS) continue;
      const reply = digest.derived().replies[0];
      const [text, image] = (reply.message as { content: [{ text: string }, { source: { data: string } }] }).content;
      const left = full.length - MAX_DERIVED_CHARS;
      expect(text.text).toBe(left > 0 ? `[… ${left} older characters evicted …]` + full.slice(left) : full);
      const keep = MAX_DERIVED_CHARS - (MAX_DERIVED_CHARS % 4);
      expect(image.source.data).toBe(data.length > MAX_DERIVED_CHARS ? data.slice(data.length - keep) : data);
      expect(reply.cutData ?? []).toEqual(data.length > MAX_DERIVED_CHARS ? [{ block: 'img', chars: data.length - keep }] : []);
    }
  });

  it('a tool result\'s text output among many finished blocks is cut exactly too (only changed blocks are looked at again)', () => {
    const conn: ConnectionRecord = { kind: 'connection', id: 'c', transport: 'eventsource', frameUrl: 'https://a.test/', method: 'GET', url: 'https://a.test/s', requestHeaders: [], startTime: 1 };
    const digest = new EvictionDigest(conn);
    const ev = (o: object): MessageRecord => ({ kind: 'message', conn: 'c', t: 2, type: 'message', data: JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', reply_id: 'r', ...o }), lastEventId: '' });
    digest.push(ev({ type: 'REPLY_START', session_id: 's', name: 'n' }));
    for (let b = 0; b < 50; b++) {
      digest.push(ev({ type: 'TEXT_BLOCK_START', block_id: `b${b}` }));
      digest.push(ev({ type: 'TEXT_BLOCK_DELTA', block_id: `b${b}`, delta: `block ${b}` }));
      digest.push(ev({ type: 'TEXT_BLOCK_END', block_id: `b${b}` }));
    }
    digest.push(ev({ type: 'TOOL_CALL_START', tool_call_id: 'call', tool_call_name: 'read' }));
    digest.push(ev({ type: 'TOOL_RESULT_START', tool_call_id: 'call', tool_call_name: 'read' }));
    let full = '';
    for (let i = 0; full.length < 3 * MAX_DERIVED_CHARS; i++) {
      const piece = String.fromCharCode(97 + (i % 26)).repeat(32_767) + '\n';
      full += piece;
      digest.push(ev({ type: 'TOOL_RESULT_TEXT_DELTA', tool_call_id: 'call', delta: piece }));
    }
    expect(retainedChars(digest)).toBeLessThan(MAX_GROWING_CHARS + 64 * 1024); // bounded while fed, not only written out
    const content = (digest.derived().replies[0].message as { content: { type: string; text?: string; output?: { text: string }[] }[] }).content;
    const left = full.length - MAX_DERIVED_CHARS;
    expect(content.find((b) => b.type === 'tool_result')?.output?.[0].text).toBe(`[… ${left} older characters evicted …]` + full.slice(left));
    expect(content.filter((b) => b.type === 'text').map((b) => b.text)).toEqual(Array.from({ length: 50 }, (_, b) => `block ${b}`));
  });

  it.each(['eventsource', 'websocket'] as const)('as messages (%s): the same bound', (transport) => {
    // One record per event, without a line to read: such records were applied and never capped — an endless reply on
    // a socket grew the digest (and every snapshot carrying it) by all it evicted.
    const conn: ConnectionRecord = { kind: 'connection', id: 'c', transport, frameUrl: 'https://a.test/', method: 'GET', url: 'wss://a.test/s', requestHeaders: [], startTime: 1 };
    const digest = new EvictionDigest(conn);
    const ev = (o: object): MessageRecord => ({ kind: 'message', conn: 'c', t: 2, type: 'message', data: JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', reply_id: 'r', ...o }), lastEventId: '' });
    digest.push(ev({ type: 'REPLY_START', session_id: 's', name: 'n' }));
    digest.push(ev({ type: 'TEXT_BLOCK_START', block_id: 'b' }));
    const piece = 'x'.repeat(4096);
    for (let i = 0; i < (3 * MAX_DERIVED_CHARS) / piece.length; i++) digest.push(ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: piece }));
    const text = (digest.derived().replies[0].message as { content: { text: string }[] }).content[0].text;
    expect(text.length).toBeLessThan(MAX_DERIVED_CHARS + 100);
    expect(text).toMatch(/^\[… \d+ older characters evicted …\]x+$/);
  });
});

// A line longer than the digest keeps (a big image's base64 in one delta) is given up — only that event: the replies
// before and after it are still derived, its tail is not read as a line of its own, and the kept events keep the
// full stream's numbering. (It once marked the whole digest incomplete, for good: every later reply came out an
// orphan, and the tail of the line was read as an ignored SSE line.)
describe('EvictionDigest gives up a line too long to keep, not the replies', () => {
  const ev = (o: object) => `data: ${JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', ...o })}\n\n`;
  const reply = (r: string, text: string, extra = '') =>
    ev({ type: 'REPLY_START', reply_id: r, session_id: 's', name: 'n' }) + ev({ type: 'TEXT_BLOCK_START', reply_id: r, block_id: `${r}-t` }) +
    ev({ type: 'TEXT_BLOCK_DELTA', reply_id: r, block_id: `${r}-t`, delta: text }) + ev({ type: 'TEXT_BLOCK_END', reply_id: r, block_id: `${r}-t` }) +
    extra + ev({ type: 'REPLY_END', reply_id: r, session_id: 's' });
  const data = 'QUJD'.repeat(400_000); // 1.6 M characters on one line
  const image = ev({ type: 'DATA_BLOCK_START', reply_id: 'r1', block_id: 'img', media_type: 'image/png' }) +
    ev({ type: 'DATA_BLOCK_DELTA', reply_id: 'r1', block_id: 'img', media_type: 'image/png', data }) +
    ev({ type: 'DATA_BLOCK_END', reply_id: 'r1', block_id: 'img' });
  const body = new TextEncoder().encode(reply('r0', 'zero') + reply('r1', 'Hello ', image) + reply('r2', 'two '.repeat(50_000)) + reply('r3', 'three'));
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < body.length; i += 65536) chunks.push(body.subarray(i, i + 65536));
  const records = captureOf(chunks);
  const HEADER = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;
  const full = analyzeCapture({ header: HEADER, records })[0];
  const conn = records[0] as ConnectionRecord;
  const all = records.filter((r): r is ChunkRecord => r.kind === 'chunk');
  const lineStart = new TextDecoder().decode(body).indexOf('data: {"id":"e","created_at":"2026-01-01T00:00:00","type":"DATA_BLOCK_DELTA"');

  /** The capture after evicting the first k chunks, read from its digest. */
  function after(k: number) {
    const digest = new EvictionDigest(conn);
    for (const c of all.slice(0, k)) digest.push(c);
    const derived = digest.derived();
    const rest = records.filter((r) => r.kind !== 'chunk' || all.indexOf(r) >= k);
    const evicted: EvictionRecord = { kind: 'evicted', conn: conn.id, t: all[k - 1].t, chunks: k, messages: 0, bytes: 0, derived };
    return { derived, view: analyzeCapture({ header: HEADER, records: [rest[0], evicted, ...rest.slice(1)] })[0] };
  }
  const text = (m: unknown) => JSON.stringify((m as { content: unknown[] }).content.filter((b) => (b as { type: string }).type === 'text'));

  for (const [where, k] of [['inside the line', Math.floor(lineStart / 65536) + 20], ['after the line', Math.ceil((lineStart + data.length + 200) / 65536)]] as const) {
    it(`evicted ${where}`, () => {
      expect(k).toBeLessThan(all.length);
      const { derived, view } = after(k);
      expect(derived.incomplete).toBeUndefined();
      expect(derived.lost).toBe(1);
      expect(derived.carryLost).toBe(where === 'inside the line' ? true : undefined);
      // The kept events are the full stream's last ones, numbered as there.
      expect(derived.events + view.events.length).toBe(full.events.length);
      expect(view.events.map((e) => e.type)).toEqual(full.events.slice(derived.events).map((e) => e.type));
      const byId = new Map(view.replies.map((r) => [r.id, r]));
      for (const r of full.replies.filter((r) => r.id !== 'r0')) {
        const got = byId.get(r.id);
        if (!got) { // all its events were evicted
          expect(Math.max(...r.eventIndices), r.id).toBeLessThan(derived.events);
          continue;
        }
        expect(got.orphan ?? false, r.id).toBe(false);
        // r1 lost the image's delta; its text, and the replies after it, are whole.
        const last = (x: typeof r) => x.history.at(x.history.length - 1);
        if (r.id === 'r1') expect(text(last(got!))).toBe(text(last(r)));
        else expect(last(got!)).toEqual(last(r));
      }
      const codes = view.diagnostics.map((d) => d.code);
      expect(codes).not.toContain('sse.ignored-line');
      expect(codes).not.toContain('as.foreign-reply-id');
      const note = view.diagnostics.find((d) => d.code === 'stream.evicted');
      expect(note?.severity).toBe('warning');
      expect(note?.message).toMatch(/one of them was on a line longer than the digest keeps .* not read: the replies continue without it/);
    });
  }
});

describe('a capped string of a derived message', () => {
  const HEADER = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;
  const ev = (o: object) => `data: ${JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', reply_id: 'r', ...o })}\n\n`;
  /** Chunks of 64 KiB of `body`; the digest of the first `k`, and the analysis of the rest from it. */
  function evicted(body: string, k: (n: number) => number) {
    const bytes = new TextEncoder().encode(body);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536));
    const records = captureOf(chunks);
    const all = records.filter((r): r is ChunkRecord => r.kind === 'chunk');
    const digest = new EvictionDigest(records[0] as ConnectionRecord);
    const n = k(all.length);
    for (const c of all.slice(0, n)) digest.push(c);
    const derived = digest.derived();
    const evictedRecord: EvictionRecord = { kind: 'evicted', conn: 'c1', t: all[n - 1].t, chunks: n, messages: 0, bytes: 0, derived };
    const rest = records.filter((r) => r.kind !== 'chunk' || all.indexOf(r) >= n);
    return { derived, view: analyzeCapture({ header: HEADER, records: [rest[0], evictedRecord, ...rest.slice(1)] })[0] };
  }

  it('is not cut between the halves of a surrogate pair, and counts what it left out', () => {
    const deltas = ['a', ...Array.from({ length: 12 }, () => '🙂'.repeat(50_000)), 'b']; // lines below the 1 Mi line limit
    const body = ev({ type: 'REPLY_START', session_id: 's', name: 'n' }) + ev({ type: 'TEXT_BLOCK_START', block_id: 'b' }) +
      deltas.map((delta) => ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta })).join('') + ev({ type: 'TEXT_BLOCK_END', block_id: 'b' });
    const { derived } = evicted(body, (n) => n); // all of it: the derived text is the whole text, capped
    const kept = (derived.replies[0].message as { content: { text: string }[] }).content[0].text;
    const m = /^\[… (\d+) older characters evicted …\]/.exec(kept)!;
    const rest = kept.slice(m[0].length);
    expect(rest.charCodeAt(0)).toBe(0xd83d); // a whole 🙂 (was its low half alone: "\ude42")
    const text = deltas.join('');
    expect(Number(m[1]) + rest.length).toBe(text.length);
    expect(text.endsWith(rest)).toBe(true);
  });

  it('a tool call input the cap cut is not reported as invalid JSON at TOOL_CALL_END', () => {
    const args = `{"rows": [${Array.from({ length: 120_000 }, (_, i) => `"row ${i}"`).join(',')}]}`;
    const pieces = args.match(/[\s\S]{1,200000}/g)!;
    const body = ev({ type: 'REPLY_START', session_id: 's', name: 'n' }) + ev({ type: 'TOOL_CALL_START', tool_call_id: 't', tool_call_name: 'f' }) +
      pieces.map((p) => ev({ type: 'TOOL_CALL_DELTA', tool_call_id: 't', delta: p })).join('') + ev({ type: 'TOOL_CALL_END', tool_call_id: 't' });
    const { derived, view } = evicted(body, (n) => n - 1);
    const input = (derived.replies[0].message as { content: { type: string; input?: string }[] }).content.find((b) => b.type === 'tool_call')!.input!;
    expect(input.startsWith('[… ')).toBe(true);
    expect(view.diagnostics.map((d) => d.code)).not.toContain('as.tool-input-invalid-json');
  });

  it('base64 data the cap cut is said to no longer decode to what was sent (it was cut silently: a corrupt image)', () => {
    const data = 'QUJD'.repeat(400_000); // 1.6 M characters, in 8 deltas below the line limit
    const body = ev({ type: 'REPLY_START', session_id: 's', name: 'n' }) + ev({ type: 'DATA_BLOCK_START', block_id: 'img', media_type: 'image/png' }) +
      (data.match(/.{1,200000}/g) ?? []).map((d) => ev({ type: 'DATA_BLOCK_DELTA', block_id: 'img', media_type: 'image/png', data: d })).join('') +
      ev({ type: 'DATA_BLOCK_END', block_id: 'img' });
    const { derived, view } = evicted(body, (n) => n - 1);
    const cut = derived.replies[0].cutData;
    const kept = (derived.replies[0].message as { content: { source?: { data: string } }[] }).content[0].source!.data;
    expect(cut).toEqual([{ block: 'img', chars: expect.any(Number) }]);
    expect(cut![0].chars + kept.length).toBeGreaterThan(1_000_000);
    expect(cut![0].chars % 4).toBe(0);
    const note = view.diagnostics.find((d) => d.code === 'stream.evicted')!;
    expect(note.severity).toBe('warning');
    expect(note.message).toContain(`the data of block img of reply r (${cut![0].chars.toLocaleString('en-US')} characters) lost its head to the cap: it no longer decodes to what was sent`);
  });
});
