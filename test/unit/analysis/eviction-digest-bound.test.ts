import { describe, expect, it } from 'vitest';
import { EvictionDigest, MAX_DERIVED_CHARS } from '../../../src/core/analysis/eviction-digest.ts';
import type { ChunkRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { captureOf } from './support.ts';

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
});
