// The HAR's text as it is made, for a capture of any size. exportHar (har.ts) makes the HAR as one object — each
// body decoded whole, its SSE messages all read — which for a 300 MB capture held the page for ~4.5 s before the
// first character was written, made the body one string of 300 M characters (past ~512 M, more than a string holds,
// the export could not be made at all), and then ~8 s to write. Here the same document is written piece by piece:
// a body is checked in one pass and written in a second, never held whole; its messages are read as they are
// written; and every loop pauses (yields PAUSE, an empty part) so that a caller can give the thread back between
// slices. The text is exactly writeHar's (test/unit/capture/har-parts.test.ts holds them equal).
import type { Capture, ChunkRecord } from './model.ts';
import { entrySteps, groupSteps, harDocument, withEvicted, type EntryBodies, type EvictedHead, type EvictedSseHead } from './har.ts';
import { SseMessageReading, type HarEventSourceMessage } from './har-messages.ts';
import { jsonParts, LazyArray, LazyString, LazyValue, PAUSE, type Pause, type WorkProgress } from './json-parts.ts';
import { bytesToBase64, PageTextDecoder, payloadBytes, utf8Length } from '../frames/utf8-chunks.ts';

/**
 * The HAR's parts (empty ones where it pauses). `progress` counts the work done: one unit per record grouped, then
 * up to four per record of a connection (its body checked, written, read for messages; the raw record written).
 */
export function harParts(capture: Capture, progress: WorkProgress = { done: 0, total: 0 }): Generator<string> {
  return jsonParts(new LazyValue(function* () {
    // At most 5 units a record: counted down to what the records need once they are grouped, so the share done
    // never goes back.
    progress.total = 5 * capture.records.length;
    const grouped = groupSteps(capture);
    let step = grouped.next();
    for (; !step.done; step = grouped.next()) {
      progress.done = Math.min(progress.done + 4096, capture.records.length);
      yield PAUSE;
    }
    const groups = step.value;
    const { connections } = groups;
    progress.done = capture.records.length;
    progress.total = capture.records.length;
    for (const { own } of connections) progress.total += 4 * own.length;
    const entries = new LazyArray(function* () {
      for (const c of connections) {
        const done = progress.done;
        yield new LazyValue(function* () {
          const entry = yield* entrySteps(c, capture.header.created, asWritten(progress));
          return entry;
        });
        progress.done = done + 4 * c.own.length; // the entry is written: what its parts did not count
      }
    });
    return harDocument(capture, entries, groups);
  }), 2);
}

/** An entry's large parts made as they are written, counting their work in `progress`. */
function asWritten(progress: WorkProgress): EntryBodies {
  return {
    content: (chunks, mimeType, evicted) => bodyContent(chunks, mimeType, evicted, progress),
    sseMessages: (chunks, head) => sseMessages(chunks, head, progress),
    list: (items, each) => new LazyArray(function* () {
      for (const item of items) {
        progress.done++;
        yield each(item);
      }
    }),
    records: (own) => new LazyArray(function* () {
      for (const pair of own) {
        progress.done++;
        yield pair;
      }
    }),
  };
}

/**
 * A body's content as exportHar makes it — its size, then its text when the bytes are UTF-8, else their base64 — in
 * two passes: the first measures the body and checks it is UTF-8 (the text is not kept), the second writes it.
 */
function bodyContent(chunks: ChunkRecord[], mimeType: string, evicted: EvictedHead, progress: WorkProgress): LazyValue {
  return new LazyValue(function* () {
    // Text records (what this tool writes wherever a chunk is UTF-8) are UTF-8 whatever they hold: the body is then
    // their text, and only its size need be counted. A base64 record may hold any bytes, cut anywhere.
    const textOnly = chunks.every((c) => c.base64 === undefined);
    let size = 0;
    let utf8 = true;
    const check = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    for (const c of chunks) {
      if (textOnly) size += utf8Length(c.text ?? '');
      else {
        const bytes = payloadBytes(c);
        size += bytes.length;
        if (utf8) utf8 = decodes(check, bytes);
      }
      progress.done++;
      yield PAUSE;
    }
    if (!textOnly && utf8) utf8 = decodes(check);
    if (size === 0) return withEvicted({ size: 0, mimeType, text: '' }, evicted);
    if (utf8) return withEvicted({ size, mimeType, text: new LazyString(() => (textOnly ? textPieces(chunks, progress) : decodedPieces(chunks, progress))) }, evicted);
    return withEvicted({ size, mimeType, text: new LazyString(() => base64Pieces(chunks, progress)), encoding: 'base64' }, evicted);
  });
}

/** False when the bytes (undefined: the end of the body) are not UTF-8 after what the decoder was given before. */
function decodes(decoder: TextDecoder, bytes?: Uint8Array): boolean {
  try {
    if (bytes) decoder.decode(bytes, { stream: true });
    else decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** What a text record's bytes decode to: its text, a lone surrogate (which TextEncoder writes as U+FFFD) replaced. */
function wellFormed(text: string): string {
  // isWellFormed: ES2024 (Chromium 111, Firefox 119, Node 20). A test for surrogates alone would send every text with
  // an emoji the slow way: ~1 s of a 110 MB HAR export went there.
  const s = text as string & { isWellFormed?: () => boolean; toWellFormed?: () => string };
  if (typeof s.isWellFormed === 'function') return s.isWellFormed() ? text : (s.toWellFormed as () => string).call(text);
  return /[\ud800-\udfff]/.test(text) ? new TextDecoder().decode(new TextEncoder().encode(text)) : text;
}

function* textPieces(chunks: ChunkRecord[], progress: WorkProgress): Generator<string> {
  for (const c of chunks) {
    progress.done++;
    yield wellFormed(c.text ?? '');
  }
}

/** The body decoded chunk by chunk: a streaming decoder never ends a piece inside a character, nor a surrogate pair. */
function* decodedPieces(chunks: ChunkRecord[], progress: WorkProgress): Generator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  for (const c of chunks) {
    progress.done++;
    yield decoder.decode(payloadBytes(c), { stream: true });
  }
  yield decoder.decode();
}

/** The body's base64, written three bytes to four characters: bytes of a group cut between chunks wait for the next. */
function* base64Pieces(chunks: ChunkRecord[], progress: WorkProgress): Generator<string> {
  let held = new Uint8Array(0);
  for (const c of chunks) {
    progress.done++;
    const own = payloadBytes(c);
    const bytes = held.length === 0 ? own : joined(held, own);
    const whole = bytes.length - (bytes.length % 3);
    held = bytes.slice(whole);
    yield bytesToBase64(bytes.subarray(0, whole));
  }
  yield bytesToBase64(held); // the last group, padded
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * `_eventSourceMessages` of an SSE body, read as they are written: the page's text of each chunk (as chunkTexts has
 * it) through the spec reader, each data frame a message (as sseMessages makes them, har-messages.ts: a body whose
 * head was evicted from where the text kept begins a whole event; the end of the body, which adds no frame, is not needed).
 */
function sseMessages(chunks: ChunkRecord[], head: EvictedSseHead | undefined, progress: WorkProgress): LazyArray {
  return new LazyArray(function* (): Generator<HarEventSourceMessage | Pause> {
    const page = new PageTextDecoder();
    const reading = new SseMessageReading(head);
    for (let k = 0; k < chunks.length; k++) {
      let text = page.push(chunks[k]);
      if (k === chunks.length - 1) text += page.end(); // a character another writer's base64 left unfinished
      yield* reading.read(text, chunks[k].t);
      progress.done++;
      yield PAUSE;
    }
  });
}
