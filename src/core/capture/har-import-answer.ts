// A browser HAR entry's answer as capture records: its body as chunks (at the message times when they line up), a
// WebSocket's text messages, and why there is nothing to read when the entry holds no body (har-import-browser.ts
// reads the entry and chooses which).
import type { CaptureRecord, EndRecord, EvictionRecord, Transport } from './model.ts';
import { evictedWhyText, type EvictionCause } from './eviction-cause.ts';
import { SseSpecDecoder } from '../frames/sse-spec.ts';
import { Resync } from '../frames/resync.ts';
import { Utf8ChunkEncoder, base64ToBytes } from '../frames/utf8-chunks.ts';
import type { ImportMasking } from './har-import-mask.ts';
import { HarImportError, num, str, type Obj } from './har-import-fields.ts';

/**
 * A message time from a HAR: epoch seconds (Chrome's pseudo wall time), epoch milliseconds (Playwright writes those:
 * above 1e11, which as seconds would be the year 5138), anything else taken as seconds relative to the first.
 */
export function messageTimeMs(time: unknown, entryStart: number, firstTime: number): number {
  const t = num(time);
  if (t === undefined) return Number.NaN;
  if (t > 1e11) return t;
  if (t > 1e9) return t * 1000;
  return entryStart + (t - firstTime) * 1000;
}

/**
 * A WebSocket entry's frames (Chrome's `_webSocketMessages`: type send/receive, opcode 1 text / 2 binary, time in
 * epoch seconds, data): the text messages become message records — received ones `message` (each one event's data,
 * as an EventSource message is), sent ones `send`, masked as the tap records them; a notice counts the binary frames
 * left out.
 */
export function webSocketRecords(id: string, frames: Obj[], start: number, endT: number, masking: ImportMasking): CaptureRecord[] {
  const out: CaptureRecord[] = [];
  const first = num(frames[0]?.time) ?? 0;
  let binary = 0;
  for (const f of frames) {
    if (f.type !== 'send' && f.type !== 'receive') continue;
    if (f.opcode !== undefined && f.opcode !== 1) binary++;
    else {
      const sent = f.type === 'send';
      const data = sent ? masking.sentMessage(str(f.data) ?? '') : str(f.data) ?? '';
      out.push({ kind: 'message', conn: id, t: messageTimeMs(f.time, start, first), type: sent ? 'send' : 'message', data, lastEventId: '' });
    }
  }
  if (binary) {
    out.push({ kind: 'notice', t: endT, conn: id, level: 'info', text: `WebSocket: the text messages were imported (each received one read as one event, the app's own shown as other messages, the sent ones as sent); not shown: ${binary} binary message${binary === 1 ? '' : 's'}.` });
  }
  return out;
}

/**
 * Body bytes as chunks; split at frame ends with the message times when they line up one to one. Otherwise the body
 * is one chunk of unknown time (NaN): a browser keeps no arrival times, and the entry's end time would read as if
 * every event had arrived at once (a time to first token of 0 ms). `headCut`: the entry's size says more than its
 * text — ours when the memory cap evicted the body's head, whose messages begin at the first whole event of the rest
 * (har-messages.ts): when they line up only so, the text before that event goes with it.
 */
export function bodyChunks(conn: string, body: Uint8Array, endT: number, msgTimes: number[], isSse: boolean, headCut = false): CaptureRecord[] {
  const enc = new Utf8ChunkEncoder();
  const pieces: { bytes: Uint8Array; t: number }[] = [];
  // The pieces are cut from the decoded text and encoded again: only where that gives the body's bytes back, i.e. the
  // body is UTF-8. (Comparing lengths was not enough: an unfinished 3-byte sequence decodes to U+FFFD, 3 bytes too.)
  const text = isSse && msgTimes.length > 0 ? utf8TextOf(body) : undefined;
  if (text !== undefined) {
    const dec = new SseSpecDecoder();
    let data = dec.push(text, Number.NaN).filter((f) => f.kind === 'data');
    if (headCut && data.length > msgTimes.length) {
      const head = text.length - new Resync('frame').skip(text).length;
      const whole = data.filter((f) => f.end > head);
      if (whole.length === msgTimes.length) data = whole;
    }
    if (data.length === msgTimes.length) {
      let from = 0;
      data.forEach((f, k) => {
        pieces.push({ bytes: new TextEncoder().encode(text.slice(from, f.end)), t: msgTimes[k] });
        from = f.end;
      });
      if (from < text.length) pieces.push({ bytes: new TextEncoder().encode(text.slice(from)), t: endT });
    }
  }
  if (pieces.length === 0 && body.length > 0) pieces.push({ bytes: body, t: Number.NaN });
  const out: CaptureRecord[] = [];
  for (const p of pieces) {
    if (p.bytes.length === 0) continue;
    out.push({ kind: 'chunk', conn, t: p.t, ...enc.push(p.bytes) });
  }
  const flush = enc.flush();
  if (flush) out.push({ kind: 'chunk', conn, t: pieces.at(-1)?.t ?? Number.NaN, ...flush });
  return out;
}

const CAUSES: EvictionCause[] = ['cap', 'clear', 'both'];

/**
 * The eviction of the entry's head that our HAR's own comments tell (withEvicted, har.ts, of a body;
 * evictedMessagesComment, har-messages.ts, of an EventSource's or a WebSocket's messages — `messages`). Read without
 * our `_replyscope` fields the entry held no eviction record: the rest was read as a whole stream, its replies orphans,
 * and neither the panel nor the CLI said why. A body's comment gives its bytes, not its chunks: a record of bytes
 * alone. What let them go is in the words; of both, how many were Clear's is not known — one is said to be.
 */
export function evictedHead(conn: string, entry: Obj, content: Obj, messages: boolean): EvictionRecord | undefined {
  const m = messages
    ? /^messages cut: the first (\d+) were (.+); _(?:eventSource|webSocket)Messages holds the rest$/.exec(str(entry.comment) ?? '')
    : /^body cut: its first (\d+) bytes were (.+); text holds the rest$/.exec(str(content.comment) ?? '');
  const n = Number(m?.[1]);
  const by = CAUSES.find((c) => evictedWhyText(c) === m?.[2]);
  if (!m || !Number.isSafeInteger(n) || n <= 0 || by === undefined) return undefined;
  const cleared = by === 'cap' ? 0 : by === 'clear' ? n : 1;
  return { kind: 'evicted', conn, t: Number.NaN, chunks: 0, messages: messages ? n : 0, bytes: messages ? 0 : n, ...(cleared ? { cleared } : {}) };
}

/** The body as text when it is UTF-8 (a BOM kept, as the readers expect), else undefined. */
function utf8TextOf(body: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { ignoreBOM: true, fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}

/** The bytes of a base64 `content.text` (whitespace allowed); a HarImportError naming the entry when it is not base64. */
export function contentBytes(text: string, index: number, url: string): Uint8Array {
  try {
    return base64ToBytes(text.replace(/\s+/g, ''));
  } catch (e) {
    throw new HarImportError(`HAR entry ${index} (${url}): response.content.text is not valid base64 (${(e as Error).message})`);
  }
}

/** Why a WebSocket entry has no messages, and what to do about it. */
export function missingMessagesNote(content: Obj): string {
  const file = str(content._file);
  if (file !== undefined) {
    return `This WebSocket entry's messages are stored in a separate file (content._file "${file}", next to the HAR), ` +
      'which is not read: save the HAR with the content embedded (Playwright: recordHar content "embed").';
  }
  return 'This WebSocket entry has no messages (_webSocketMessages; Firefox\'s HAR keeps none): nothing to read.';
}

/** Why an entry has no body, and what to do about it. */
export function missingBodyNote(content: Obj, state: EndRecord['state'], transport: Transport): string {
  const file = str(content._file);
  if (file !== undefined) {
    return `This HAR entry's body is stored in a separate file (content._file "${file}", next to the HAR): save the HAR with the content embedded (Playwright: recordHar content "embed"), or import that file on its own.`;
  }
  // Chromium keeps no body for an EventSource (Network.getResponseBody: "No data found"), open or closed, and neither
  // Chrome nor Playwright writes its events; the notes below ("saved without content?", "save it after the stream
  // ends" — an EventSource reconnects rather than ends) sent the user after a HAR that cannot exist.
  if (transport === 'eventsource') {
    return 'Chrome\'s and Playwright\'s HARs keep neither the body nor the events of an EventSource (Chrome shows them in its ' +
      'EventStream tab but does not save them; Firefox\'s HAR keeps the body): nothing to read. Capture it with the extension, ' +
      'which records every event the page is dispatched.';
  }
  // Chromium keeps no body for a request cancelled or broken off mid-response (Playwright writes size -1): the note
  // asked whether the HAR was saved without content, of a HAR saved with it.
  if (state === 'aborted' || state === 'error') {
    return `This HAR entry's response was ${state === 'aborted' ? 'cancelled by the page' : 'broken off'} before it ended, and was ` +
      'saved without its body (Chrome and Playwright keep none for such a request): nothing to read. Capture it with the extension, which records what arrived.';
  }
  if (state === 'open') {
    return 'This HAR entry\'s response had not finished when the HAR was saved: a browser keeps no body for a stream still ' +
      'streaming, so there is nothing to read. Save the HAR after the stream ends — or capture it with the extension, which records it as it arrives.';
  }
  return 'This HAR entry has no response content (saved without content?): nothing to read.';
}
