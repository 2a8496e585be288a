// Huge chunks are analysed in pieces, so an imported multi-megabyte body (one chunk) is worked off in slices too.
import type { ChunkRecord } from '../../src/core/capture/model.ts';

/**
 * Cut a chunk's text into pieces for analysis. The body readers are chunk-boundary independent (frames and events
 * do not depend on where reads ended), so the pieces read exactly like the whole. Cuts avoid splitting a surrogate
 * pair; byte counts add up to the original's (the last piece takes the remainder, which includes any bytes of a
 * character the original completed from an earlier chunk).
 */
export function splitChunk(r: ChunkRecord, size: number): ChunkRecord[] {
  const whole = r.text;
  if (whole === undefined || whole.length <= size) return [r];
  const out: ChunkRecord[] = [];
  const utf8 = new TextEncoder();
  let bytes = 0;
  for (let i = 0; i < whole.length;) {
    let end = Math.min(whole.length, i + Math.max(2, size));
    const last = whole.charCodeAt(end - 1);
    if (end < whole.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair together
    const text = whole.slice(i, end);
    i = end;
    const n = i < whole.length ? utf8.encode(text).length : r.bytes - bytes;
    bytes += n;
    out.push({ ...r, text, bytes: n });
  }
  return out;
}
