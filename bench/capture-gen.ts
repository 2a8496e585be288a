// A realistic, deterministic AgentScope session capture for the benchmarks: many replies back to back on one SSE
// connection, each an agent loop (model call → thinking → text → tool calls → tool results → …), token-sized deltas,
// occasional data blocks (base64 images) and `: ping` heartbeats; the body cut into network-like chunks (several
// frames per read, sometimes a frame or a multi-byte character split across reads) and recorded exactly as the tap
// records it (Utf8ChunkEncoder). The wire JSON follows pydantic's `model_dump_json` of the reference event classes:
// base fields (`id`, `created_at`, `metadata`) first, then the class's own.
import type { CaptureRecord, ConnectionRecord } from '../src/core/capture/model.ts';
import { Utf8ChunkEncoder } from '../src/core/frames/utf8-chunks.ts';

export interface GeneratedCapture {
  records: CaptureRecord[];
  /** Number of protocol events (data frames) in the body. */
  events: number;
  /** Heartbeat comment frames. */
  heartbeats: number;
  /** UTF-8 size of the body in bytes, and its length in UTF-16 code units (the decoded text held in the records). */
  bodyBytes: number;
  bodyChars: number;
  /** Id and event count of the longest reply (the panel benchmark scrubs it). */
  longestReply: { id: string; events: number };
}

export interface GenerateOptions {
  /** Approximate number of events (the last reply is completed, so the result can be a little larger). */
  events: number;
  seed?: number;
  /** Events of one extra-long reply placed in the middle of the session (0 = none). */
  longReplyEvents?: number;
}

/** Small, fast, seedable PRNG (mulberry32): the same seed gives the same capture on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ('the of and to in is that for it as with was on be by this are at from or an which have not but ' +
  'function return value stream event reply token model agent tool result call data block message state error ' +
  'timeout retry buffer parse render latency throughput déjà vu naïve café 数据 流式 事件 模型 🙂 🚀 ✅').split(' ');
const ID_CHARS = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

class EventWriter {
  readonly frames: string[] = [];
  events = 0;
  heartbeats = 0;
  private clock = Date.UTC(2026, 2, 1, 9, 0, 0);
  constructor(private readonly rand: () => number) {}

  id(len = 22): string {
    let s = '';
    for (let i = 0; i < len; i++) s += ID_CHARS[Math.floor(this.rand() * ID_CHARS.length)];
    return s;
  }

  /** Python `datetime.now().isoformat()`: local time with microseconds, no zone. */
  private now(): string {
    this.clock += 5 + this.rand() * 40;
    const iso = new Date(this.clock).toISOString().slice(0, 23);
    return `${iso}${String(Math.floor(this.rand() * 1000)).padStart(3, '0')}`;
  }

  emit(type: string, fields: Record<string, unknown>): void {
    const ev = { id: this.id(), created_at: this.now(), metadata: {}, type, ...fields };
    this.frames.push(`data: ${JSON.stringify(ev)}\n\n`);
    this.events++;
    if (this.rand() < 0.005) {
      this.frames.push(': ping\n\n');
      this.heartbeats++;
    }
  }

  token(): string {
    const w = WORDS[Math.floor(this.rand() * WORDS.length)];
    const r = this.rand();
    return r < 0.7 ? ` ${w}` : r < 0.85 ? w : r < 0.95 ? `${w},` : `.\n${w}`;
  }
}

function int(rand: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/** One agent reply; `budget` is the number of content deltas it should carry (roughly its length in events). */
function writeReply(w: EventWriter, rand: () => number, replyId: string, session: string, budget: number, long = false): void {
  w.emit('REPLY_START', { session_id: session, reply_id: replyId, name: 'Friday', role: 'assistant' });
  let left = budget;
  let iteration = 0;
  while (left > 0 || iteration === 0) {
    iteration++;
    w.emit('MODEL_CALL_START', { reply_id: replyId, model_name: 'qwen-max' });
    const deltas = (kind: 'TEXT' | 'THINKING', n: number) => {
      const block = w.id(12);
      w.emit(`${kind}_BLOCK_START`, { reply_id: replyId, block_id: block });
      for (let i = 0; i < n; i++) w.emit(`${kind}_BLOCK_DELTA`, { reply_id: replyId, block_id: block, delta: w.token() });
      w.emit(`${kind}_BLOCK_END`, { reply_id: replyId, block_id: block });
      left -= n + 2;
    };
    if (rand() < 0.6) deltas('THINKING', Math.min(Math.max(left, 1), int(rand, 20, 300)));
    deltas('TEXT', Math.min(Math.max(left, 1), int(rand, 20, 600)));
    if (rand() < 0.08) {
      const block = w.id(12);
      w.emit('DATA_BLOCK_START', { reply_id: replyId, block_id: block, media_type: 'image/png' });
      const n = int(rand, 3, 12);
      for (let i = 0; i < n; i++) {
        let b64 = '';
        const len = 4 * int(rand, 64, 256);
        for (let j = 0; j < len; j++) b64 += 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[Math.floor(rand() * 64)];
        w.emit('DATA_BLOCK_DELTA', { reply_id: replyId, block_id: block, data: b64, media_type: 'image/png' });
      }
      w.emit('DATA_BLOCK_END', { reply_id: replyId, block_id: block });
      left -= n + 2;
    }
    // A reply ends after a model call without tool calls; a long reply keeps calling tools until its budget is spent.
    const calls = left <= 0 ? 0 : long ? int(rand, 1, 2) : int(rand, 0, 2);
    const ids: string[] = [];
    for (let c = 0; c < calls; c++) {
      const call = `call_${w.id(16)}`;
      ids.push(call);
      w.emit('TOOL_CALL_START', { reply_id: replyId, tool_call_id: call, tool_call_name: 'web_search' });
      // Argument JSON streamed in pieces of 2–8 code points (a model never splits a character).
      const args = [...JSON.stringify({ query: Array.from({ length: int(rand, 3, 30) }, () => w.token()).join(''), top_k: 5 })];
      for (let i = 0; i < args.length;) {
        const step = int(rand, 2, 8);
        w.emit('TOOL_CALL_DELTA', { reply_id: replyId, tool_call_id: call, delta: args.slice(i, i + step).join('') });
        i += step;
        left--;
      }
      w.emit('TOOL_CALL_END', { reply_id: replyId, tool_call_id: call });
    }
    w.emit('MODEL_CALL_END', { reply_id: replyId, input_tokens: int(rand, 200, 8000), output_tokens: int(rand, 20, 900),
      cache_input_tokens: 0, cache_creation_input_tokens: 0, finished_reason: 'completed' });
    for (const call of ids) {
      w.emit('TOOL_RESULT_START', { reply_id: replyId, tool_call_id: call, tool_call_name: 'web_search' });
      const n = int(rand, 1, 20);
      for (let i = 0; i < n; i++) {
        const text = Array.from({ length: int(rand, 10, 80) }, () => w.token()).join('');
        w.emit('TOOL_RESULT_TEXT_DELTA', { reply_id: replyId, tool_call_id: call, delta: text });
      }
      w.emit('TOOL_RESULT_END', { reply_id: replyId, tool_call_id: call, state: 'success' });
      left -= n + 2;
    }
    if (calls === 0) break;
  }
  w.emit('REPLY_END', { session_id: session, reply_id: replyId, finished_reason: 'completed', error: null });
}

interface Session {
  frames: string[];
  events: number;
  heartbeats: number;
  longestReply: { id: string; events: number };
}

function writeSession(opts: GenerateOptions, rand: () => number): Session {
  const w = new EventWriter(rand);
  const session = `session-${w.id(8)}`;
  // The long reply goes in the middle of the session (once).
  let longAt = opts.longReplyEvents ? Math.floor(opts.events / 2) : Infinity;
  let longest = { id: '', events: 0 };
  let r = 0;
  while (w.events < opts.events) {
    const before = w.events;
    const replyId = `reply-${String(r++).padStart(5, '0')}-${w.id(8)}`;
    const long = before >= longAt;
    writeReply(w, rand, replyId, session, long ? (opts.longReplyEvents as number) : int(rand, 100, 2500), long);
    if (long) longAt = Infinity;
    const n = w.events - before;
    if (n > longest.events) longest = { id: replyId, events: n };
  }
  return { frames: w.frames, events: w.events, heartbeats: w.heartbeats, longestReply: longest };
}

/** The records the tap would record for the generated session stream. */
export function generateCapture(opts: GenerateOptions): GeneratedCapture {
  const rand = rng(opts.seed ?? 0x5eed);
  const s = writeSession(opts, rand);
  return { ...toRecords(s.frames, rand), events: s.events, heartbeats: s.heartbeats, longestReply: s.longestReply };
}

/** The same kind of session as an SSE body (for the browser figures, which serve it from a loopback server). */
export function generateSseBody(opts: GenerateOptions): { body: Buffer; events: number; longestReply: { id: string; events: number } } {
  const s = writeSession(opts, rng(opts.seed ?? 0x5eed));
  return { body: Buffer.from(s.frames.join(''), 'utf8'), events: s.events, longestReply: s.longestReply };
}

/** Cut the body into reads of 1–6 frames, 10% of them at a random byte inside the next frame, and record them. */
function toRecords(frames: string[], rand: () => number): Omit<GeneratedCapture, 'events' | 'heartbeats' | 'longestReply'> {
  const conn: ConnectionRecord = {
    kind: 'connection', id: 'bench:1', transport: 'fetch', frameUrl: 'http://127.0.0.1:8000/', method: 'GET',
    url: 'http://127.0.0.1:8000/api/sessions/bench/stream', requestHeaders: [['accept', 'text/event-stream']],
    status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream; charset=utf-8']],
    startTime: Date.UTC(2026, 2, 1, 9, 0, 0), responseTime: Date.UTC(2026, 2, 1, 9, 0, 0) + 120,
  };
  const records: CaptureRecord[] = [conn];
  const enc = new Utf8ChunkEncoder();
  const utf8 = new TextEncoder();
  let t = conn.responseTime as number;
  let carry = new Uint8Array(0);
  let bodyBytes = 0;
  let bodyChars = 0;
  const push = (bytes: Uint8Array) => {
    t += rand() * 30;
    const payload = enc.push(bytes);
    bodyBytes += bytes.length;
    bodyChars += payload.text?.length ?? 0;
    records.push({ kind: 'chunk', conn: conn.id, t, ...payload });
  };
  for (let i = 0; i < frames.length;) {
    const n = int(rand, 1, 6);
    const group = utf8.encode(frames.slice(i, i + n).join(''));
    i += n;
    const bytes = carry.length ? concat(carry, group) : group;
    if (rand() < 0.1 && i < frames.length) {
      const next = utf8.encode(frames[i++]);
      const cutAt = int(rand, 1, next.length - 1);
      push(concat(bytes, next.subarray(0, cutAt)));
      carry = next.slice(cutAt);
    } else {
      push(bytes);
      carry = new Uint8Array(0);
    }
  }
  if (carry.length) push(carry);
  const tail = enc.flush();
  if (tail) records.push({ kind: 'chunk', conn: conn.id, t, ...tail });
  records.push({ kind: 'end', conn: conn.id, t: t + 5, state: 'complete' });
  return { records, bodyBytes, bodyChars };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
