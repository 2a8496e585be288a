// Hostile streams: a valid AgentScope or pi stream, then mutated — fields dropped, retyped, added (including
// `__proto__`/`constructor` keys), wrong/unknown types, deep nesting, huge values, lone surrogates, invalid base64,
// events duplicated/dropped/reordered/re-routed — plus hostile frames (non-JSON, binary, invalid UTF-8, CR-only and
// mixed line ends, `data:` without a space, BOMs, long lines) and hostile connection facts (content type, HTTP
// status, end state). Every random choice comes from fast-check values, so a case is reproducible from its seed.
import fc from 'fast-check';
import type { EndState } from '../../src/core/capture/model.ts';
import { agentScopeStreamArb } from './agentscope-gen.ts';
import { piStreamArb } from './pi-gen.ts';
import type { Frame } from './wire.ts';

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'then'];

/** Values of the wrong kind for any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, '', ' ', '\u0000', '\ud800', '\udfff x \ud83d', [], {}, [null], { type: 'text' }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('<img src=x onerror=alert(1)>', 'javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', '\u202eevil\u202c', '%00', '../../etc/passwd'),
  fc.constantFrom('a', 'ab$%', '====', 'QQ', 'QQ=', '-_-_', ' QUJD ', 'QUJD====QUJD', 'Zm9v\nYmFy'), // invalid / lenient base64
);

/** An own property whatever the key (JSON.parse makes `__proto__` an own key too; so must we). */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

export type Mutation =
  | { op: 'drop-field'; at: number; key: number }
  | { op: 'retype-field'; at: number; key: number; value: unknown }
  | { op: 'add-field'; at: number; key: string; value: unknown }
  | { op: 'proto-key'; at: number; key: number; nested: boolean }
  | { op: 'set-type'; at: number; value: unknown }
  | { op: 'replace-event'; at: number; value: unknown }
  | { op: 'duplicate'; at: number }
  | { op: 'drop'; at: number }
  | { op: 'swap'; at: number; with: number }
  | { op: 'reroute'; at: number; replyId: string }
  | { op: 'deep-nest'; at: number; key: number; depth: number; array: boolean }
  | { op: 'huge-string'; at: number; size: number }
  | { op: 'not-json'; at: number; text: string }
  | { op: 'bytes'; at: number; bytes: Uint8Array }
  | { op: 'comment'; at: number; text: string }
  | { op: 'empty-frames'; at: number; count: number }
  | { op: 'big-number'; at: number; text: string };

const NOT_JSON = ['{', '}', 'undefined', "{'a': 1}", 'NaN', '[1,2', '{"type":"TEXT_BLOCK_DELTA"}}', '\u0000', 'data: {}', '{"a":"\\x41"}', '{"a":"\\ud800"', '"\\u"', '{"type": "start"', '01', '+1', '.5', '{"a":1,}', 'true false'];
const BAD_BYTES = [[0xff], [0xc0, 0x80], [0x80], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf], [0x00, 0x00], [0xfe, 0xff]];

const at = fc.nat();
export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 36, arbitrary: fc.record({ op: fc.constant('drop-field' as const), at, key: fc.nat() }) },
  { weight: 36, arbitrary: fc.record({ op: fc.constant('retype-field' as const), at, key: fc.nat(), value: hostileValue }) },
  { weight: 18, arbitrary: fc.record({ op: fc.constant('add-field' as const), at, key: fc.string({ maxLength: 8 }), value: hostileValue }) },
  { weight: 24, arbitrary: fc.record({ op: fc.constant('proto-key' as const), at, key: fc.nat(PROTO_KEYS.length - 1), nested: fc.boolean() }) },
  { weight: 18, arbitrary: fc.record({ op: fc.constant('set-type' as const), at, value: fc.oneof(hostileValue, fc.constantFrom('start', 'done', 'REPLY_START', 'agent_start', 'message_update', 'CUSTOM', 'RUN_STARTED', 'text_delta', '__proto__', 'constructor', 'toString', 'reply_start')) }) },
  { weight: 12, arbitrary: fc.record({ op: fc.constant('replace-event' as const), at, value: hostileValue }) },
  { weight: 18, arbitrary: fc.record({ op: fc.constant('duplicate' as const), at }) },
  { weight: 18, arbitrary: fc.record({ op: fc.constant('drop' as const), at }) },
  { weight: 18, arbitrary: fc.record({ op: fc.constant('swap' as const), at, with: fc.nat() }) },
  { weight: 12, arbitrary: fc.record({ op: fc.constant('reroute' as const), at, replyId: fc.constantFrom('ghost', '', '__proto__', 'constructor', 'r0-x') }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('deep-nest' as const), at, key: fc.nat(), depth: fc.constantFrom(100, 1_000, 10_000, 100_000), array: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('huge-string' as const), at, size: fc.constantFrom(1 << 20, 3 << 20, 8 << 20) }) },
  { weight: 18, arbitrary: fc.record({ op: fc.constant('not-json' as const), at, text: fc.oneof(fc.constantFrom(...NOT_JSON), fc.string({ unit: 'binary', maxLength: 30 })) }) },
  { weight: 12, arbitrary: fc.record({ op: fc.constant('bytes' as const), at, bytes: fc.oneof(fc.constantFrom(...BAD_BYTES).map((b) => Uint8Array.from(b)), fc.uint8Array({ maxLength: 40 })) }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('comment' as const), at, text: fc.string({ unit: 'binary', maxLength: 20 }) }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('empty-frames' as const), at, count: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('big-number' as const), at, text: fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '1e-400', '-0', '0.0000000000000000000001') }) },
);

function eventAt(frames: Frame[], n: number): { i: number; obj: Record<string, unknown> } | undefined {
  const idx = frames.flatMap((f, i) => (f.kind === 'event' && f.value !== null && typeof f.value === 'object' && !Array.isArray(f.value) ? [i] : []));
  if (idx.length === 0) return undefined;
  const i = idx[n % idx.length];
  return { i, obj: (frames[i] as { value: Record<string, unknown> }).value };
}

/** Applies one mutation in place (frames hold fresh copies, so this never touches the generator's objects). */
export function applyMutation(frames: Frame[], m: Mutation): void {
  const n = frames.length;
  const pos = n === 0 ? 0 : m.at % (n + 1);
  const target = eventAt(frames, m.at);
  const keys = target ? Object.keys(target.obj) : [];
  switch (m.op) {
    case 'drop-field':
      if (target && keys.length) delete target.obj[keys[m.key % keys.length]];
      return;
    case 'retype-field':
      if (target && keys.length) setOwn(target.obj, keys[m.key % keys.length], m.value);
      return;
    case 'add-field':
      if (target) setOwn(target.obj, m.key, m.value);
      return;
    case 'proto-key': {
      if (!target) return;
      const payload: Record<string, unknown> = {};
      setOwn(payload, 'polluted', 'yes');
      setOwn(payload, 'isAdmin', true);
      const host = m.nested ? ((target.obj.metadata = {}) as Record<string, unknown>) : target.obj;
      setOwn(host, PROTO_KEYS[m.key], payload);
      return;
    }
    case 'set-type':
      if (target) setOwn(target.obj, 'type', m.value);
      return;
    case 'replace-event':
      if (target) frames[target.i] = { kind: 'event', value: m.value };
      return;
    case 'duplicate':
      if (target) frames.splice(target.i + 1, 0, { kind: 'event', value: structuredClone(target.obj) });
      return;
    case 'drop':
      if (target) frames.splice(target.i, 1);
      return;
    case 'swap': {
      if (n < 2) return;
      const a = m.at % n;
      const b = m.with % n;
      [frames[a], frames[b]] = [frames[b], frames[a]];
      return;
    }
    case 'reroute':
      if (target) setOwn(target.obj, 'reply_id', m.replyId);
      return;
    case 'deep-nest': {
      if (!target) return;
      // Any field of the event (usage, partial, delta, …) or a new free-form `metadata`.
      const fields = [...keys.filter((k) => k !== 'type'), 'metadata'];
      const field = fields[m.key % fields.length];
      const open = m.array ? '['.repeat(m.depth) : '{"a":'.repeat(m.depth);
      const close = m.array ? ']'.repeat(m.depth) : '}'.repeat(m.depth);
      const rest = JSON.stringify({ ...target.obj, [field]: 0 }).replace(`"${field}":0`, `"${field}":${open}1${close}`);
      frames[target.i] = { kind: 'text', text: rest };
      return;
    }
    case 'huge-string': {
      if (!target) return;
      const field = keys.find((k) => k === 'delta' || k === 'data' || k === 'name') ?? 'delta';
      setOwn(target.obj, field, 'x'.repeat(m.size - 7) + '\u00e9\ud83d\ude00');
      return;
    }
    case 'not-json':
      frames.splice(pos, 0, { kind: 'text', text: m.text });
      return;
    case 'bytes':
      frames.splice(pos, 0, { kind: 'bytes', bytes: m.bytes });
      return;
    case 'comment':
      frames.splice(pos, 0, { kind: 'comment', text: m.text });
      return;
    case 'empty-frames':
      for (let k = 0; k < m.count; k++) frames.splice(pos, 0, { kind: 'empty' });
      return;
    case 'big-number':
      if (target) {
        const key = keys.find((k) => /tokens|contentIndex|input|output/.test(k)) ?? 'contentIndex';
        const text = JSON.stringify({ ...target.obj, [key]: 0 }).replace(`"${key}":0`, `"${key}":${m.text}`);
        frames[target.i] = { kind: 'text', text };
      }
      return;
  }
}

export interface HostileStream {
  origin: 'agentscope' | 'pi';
  frames: Frame[];
  mutations: Mutation[];
  /** Per-frame line end: mostly LF; CR-only and CRLF mixes break the line-reading clients on purpose. */
  eols: string[];
  contentType: string;
  status: number;
  endState: EndState;
  requestBody?: string;
}

export const hostileStreamArb: fc.Arbitrary<HostileStream> = fc
  .record({
    base: fc.oneof(
      agentScopeStreamArb.map((s) => ({ origin: 'agentscope' as const, events: s.events, requestBody: undefined as string | undefined })),
      piStreamArb.map((s) => ({ origin: 'pi' as const, events: s.events, requestBody: JSON.stringify(s.requestBody) })),
    ),
    mutations: fc.array(mutationArb, { minLength: 1, maxLength: 8 }),
    eols: fc.array(fc.constantFrom('\n', '\n', '\n', '\r\n', '\r', '\n\r', ''), { maxLength: 30 }),
    contentType: fc.constantFrom('text/event-stream', 'text/event-stream', 'text/event-stream; charset=utf-8', 'application/x-ndjson', 'text/plain', ''),
    status: fc.constantFrom(200, 200, 200, 204, 404, 500),
    endState: fc.constantFrom<EndState>('complete', 'complete', 'aborted', 'cancelled', 'error', 'open', 'evicted-open'),
    requestBodyJunk: fc.option(fc.constantFrom('{', '{"model": 5}', '{"__proto__": {"polluted": 1}}', 'null', '[]', '{"model":{"api":{"__proto__":1}}}')),
  })
  .map(({ base, mutations, eols, contentType, status, endState, requestBodyJunk }): HostileStream => {
    const frames: Frame[] = base.events.map((e) => ({ kind: 'event', value: structuredClone(e) }));
    for (const m of mutations) applyMutation(frames, m);
    return {
      origin: base.origin, frames, mutations, eols, contentType, status, endState,
      requestBody: requestBodyJunk ?? base.requestBody,
    };
  });
