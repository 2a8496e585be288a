// Reading an imported file: a capture log in slices (any size), anything else whole (up to MAX_INPUT_BYTES) — with the
// same capture, and the same fingerprint (the "already shown" check), either way.
import { describe, expect, it } from 'vitest';
import { fileFingerprint, readImportFile } from '../../../panel/store/import-file.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { loadInput } from '../../../src/core/capture/load-input.ts';
import { generateCapture } from '../../../bench/capture-gen.ts';
import { makeHeader } from '../../../src/core/capture/capture-log.ts';

const never = () => false;

describe('readImportFile', () => {
  it('reads a capture log of several slices (4 MiB each) as loadInput reads it whole, its fingerprint the whole file’s', async () => {
    const g = generateCapture({ events: 40_000, seed: 5 });
    const bytes = new TextEncoder().encode(writeCaptureLog({ header: makeHeader('t', { created: '2026-03-01T00:00:00.000Z' }), records: g.records }));
    expect(bytes.length).toBeGreaterThan(8 << 20);
    const shares: number[] = [];
    const read = await readImportFile(new Blob([bytes]), 'big.replyscope.ndjson', never, (s) => shares.push(s));
    expect(read).toEqual({ fingerprint: fileFingerprint(bytes), capture: loadInput(bytes, 'big.replyscope.ndjson') });
    expect(shares.length).toBeGreaterThan(2);
    expect(shares.at(-1)).toBe(1);
  });

  it('reads anything else whole, and does not parse a file already shown', async () => {
    const sse = new TextEncoder().encode('data: {"type":"REPLY_START","reply_id":"r"}\n\n');
    const read = await readImportFile(new Blob([sse]), 'a.sse', never, () => {});
    expect(read).toEqual({ fingerprint: fileFingerprint(sse), capture: loadInput(sse, 'a.sse') });
    expect(await readImportFile(new Blob([sse]), 'b.sse', (f) => f === fileFingerprint(sse), () => {})).toEqual({ fingerprint: fileFingerprint(sse), alreadyShown: true });
    const log = new TextEncoder().encode(writeCaptureLog(sampleCapture()));
    await expect(readImportFile(new Blob([log.subarray(0, 40), new Uint8Array([0x0a]), log.subarray(40)]), 'bad.ndjson', never, () => {}))
      .rejects.toThrow(/^bad\.ndjson: capture log line 1: not JSON/);
  });
});
