// Lifecycle diagnostics: each code fires on a minimal stream, and a clean stream produces none.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEvent } from '../../../src/core/agentscope/append-event.ts';
import { AssistantMsg } from '../../../src/core/agentscope/message.ts';
import type { Diagnostic } from '../../../src/core/diagnostics/types.ts';
import { AGENTSCOPE_DIAGNOSTIC_DOCS } from '../../../src/core/agentscope/diagnostic-docs.ts';
import { AgentScopeLifecycle } from '../../../src/core/agentscope/lifecycle.ts';
import { normaliseLegacyEvent } from '../../../src/core/agentscope/legacy.ts';
import { AgentScopeReplies } from '../../../src/core/agentscope/replies.ts';
import { parseWireJson } from '../../../src/core/agentscope/wire-json.ts';
import { parseWireEvent, validateEvent, type ValidationResult } from '../../../src/core/agentscope/schema.ts';

type Raw = Record<string, unknown> | string;

/** Run wire events through the same pipeline analysis uses: parse → legacy → validate → group/apply → check. */
function check(events: Raw[]): { diags: Diagnostic[]; statuses: string[] } {
  const lifecycle = new AgentScopeLifecycle();
  const replies = new AgentScopeReplies({ now: () => 'T', newId: () => 'ID' });
  const diags: Diagnostic[] = [];
  const statuses: string[] = [];
  events.forEach((e, index) => {
    const text = typeof e === 'string' ? e : JSON.stringify(e);
    const json = parseWireJson(text);
    let parsed: ValidationResult;
    let legacy = false;
    if (!json.ok) parsed = { ok: false, reason: 'json', issues: [{ path: '', message: json.message }] };
    else {
      const norm = normaliseLegacyEvent(json.value);
      legacy = norm.legacy;
      parsed = validateEvent(norm.raw);
    }
    const pushed = parsed.ok ? replies.push(parsed.event, index) : undefined;
    const outcome = pushed?.kind === 'reply' ? pushed.outcome : undefined;
    statuses.push(parsed.ok ? (outcome?.status ?? 'custom') : 'invalid');
    diags.push(...lifecycle.push(index, parsed, outcome, { legacy }));
  });
  diags.push(...lifecycle.finish());
  return { diags, statuses };
}

let n = 0;
const ts = () => `2026-03-01T09:00:${String(n++ % 60).padStart(2, '0')}`;
const R = 'reply-1';
const ev = (type: string, fields: Record<string, unknown> = {}) => ({ type, id: `e${n}`, created_at: ts(), reply_id: R, ...fields });
const start = () => ev('REPLY_START', { session_id: 's', name: 'Friday' });
const end = (f: Record<string, unknown> = {}) => ev('REPLY_END', { session_id: 's', ...f });
const text = (id: string, delta = 'hi') => [ev('TEXT_BLOCK_START', { block_id: id }), ev('TEXT_BLOCK_DELTA', { block_id: id, delta }), ev('TEXT_BLOCK_END', { block_id: id })];
const call = (id: string, input = '{}') => [
  ev('TOOL_CALL_START', { tool_call_id: id, tool_call_name: 'Bash' }),
  ev('TOOL_CALL_DELTA', { tool_call_id: id, delta: input }),
  ev('TOOL_CALL_END', { tool_call_id: id }),
];
const result = (id: string, state = 'success') => [
  ev('TOOL_RESULT_START', { tool_call_id: id, tool_call_name: 'Bash' }),
  ev('TOOL_RESULT_TEXT_DELTA', { tool_call_id: id, delta: 'ok' }),
  ev('TOOL_RESULT_END', { tool_call_id: id, state }),
];
const data = (id: string, chunks: string[], media = 'image/png') => [
  ev('DATA_BLOCK_START', { block_id: id, media_type: 'image/png' }),
  ...chunks.map((c) => ev('DATA_BLOCK_DELTA', { block_id: id, data: c, media_type: media })),
  ev('DATA_BLOCK_END', { block_id: id }),
];
const codesAt = (d: Diagnostic[], code: string) => d.filter((x) => x.code === code).map((x) => x.index);

const clean = (): Raw[] => [
  start(),
  ev('MODEL_CALL_START', { model_name: 'm' }),
  ...text('t1'),
  ...data('d1', ['YQ==', 'YmM=']),
  ...call('c1'),
  ev('MODEL_CALL_END', { input_tokens: 3, output_tokens: 4 }),
  ev('REQUIRE_USER_CONFIRM', { tool_calls: [{ id: 'c1', name: 'Bash', input: '{}' }] }),
  ev('USER_CONFIRM_RESULT', { confirm_results: [{ confirmed: true, tool_call: { id: 'c1', name: 'Bash', input: '{}' } }] }),
  ...result('c1'),
  end(),
];

/** code → a minimal stream that must raise it (and the index it must be reported at, when it matters). */
const CASES: Record<string, { events: () => Raw[]; at?: number }> = {
  'as.invalid-event': { events: () => [start(), ev('TEXT_BLOCK_DELTA', { block_id: 'x' }), end()], at: 1 },
  'as.unknown-event-type': { events: () => [start(), ev('TEXT_MESSAGE_CONTENT', { delta: 'x' }), end()], at: 1 },
  'as.extra-fields': { events: () => [{ ...start(), extra_field: 1 }, end()], at: 0 },
  'as.legacy-dialect': { events: () => [{ type: 'RUN_STARTED', id: 'e', createdAt: ts(), replyId: R, sessionId: 's', name: 'F', role: 'assistant' }, end()], at: 0 },
  'as.custom-event': { events: () => [start(), { type: 'CUSTOM', name: 'state_updated', created_at: ts() }, end()], at: 1 },
  'as.foreign-reply-id': { events: () => [start(), { ...ev('MODEL_CALL_END', { input_tokens: 1, output_tokens: 1 }), reply_id: 'other' }, end()], at: 1 },
  'as.duplicate-reply-start': { events: () => [start(), start(), end()], at: 1 },
  'as.event-after-reply-end': { events: () => [start(), end(), ev('MODEL_CALL_START', { model_name: 'm' })], at: 2 },
  'as.unknown-block-id': { events: () => [start(), ...text('t1'), ev('THINKING_BLOCK_DELTA', { block_id: 't1', delta: 'x' }), end()], at: 4 },
  'as.unknown-tool-call-id': { events: () => [start(), ev('TOOL_CALL_DELTA', { tool_call_id: 'nope', delta: 'x' }), end()], at: 1 },
  'as.delta-before-start': { events: () => [start(), ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: 'early' }), ...text('t1'), end()], at: 2 },
  'as.duplicate-start-id': { events: () => [start(), ...text('t1'), ...text('t1'), end()], at: 4 },
  'as.delta-after-end': { events: () => [start(), ...text('t1'), ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: 'late' }), end()], at: 4 },
  'as.repeated-end': { events: () => [start(), ...text('t1'), ev('TEXT_BLOCK_END', { block_id: 't1' }), end()], at: 4 },
  'as.block-not-ended': { events: () => [start(), ev('TEXT_BLOCK_START', { block_id: 't1' }), end({ finished_reason: 'interrupted' })], at: 2 },
  'as.reply-not-ended': { events: () => [start(), ...text('t1')] },
  'as.tool-result-without-call': { events: () => [start(), ...result('ghost'), end()], at: 1 },
  'as.tool-call-unanswered': { events: () => [start(), ...call('c1'), end()], at: 4 },
  'as.duplicate-tool-result': {
    events: () => [start(), ...call('c1'), ...result('c1'), ev('EXTERNAL_EXECUTION_RESULT', { execution_results: [{ id: 'c1', name: 'Bash', output: 'late' }] }), end()],
    at: 7,
  },
  'as.tool-input-invalid-json': { events: () => [start(), ...call('c1', '{"a": 1,,'), ...result('c1'), end()], at: 3 },
  'as.tool-input-unsafe-integer': { events: () => [start(), ...call('c1', '{"order_id": 1234567890123456789}'), ...result('c1'), end()], at: 3 },
  'as.invalid-base64': { events: () => [start(), ...data('d1', ['YQ']), end()], at: 2 },
  'as.base64-lenient': { events: () => [start(), ...data('d1', [' YW\nJj ']), end()], at: 2 },
  'as.media-type-changed': { events: () => [start(), ...data('d1', ['YQ=='], 'image/jpeg'), end()], at: 2 },
  'as.invalid-url': {
    events: () => [start(), ev('TOOL_RESULT_START', { tool_call_id: 'c', tool_call_name: 't' }), ev('TOOL_RESULT_DATA_DELTA', { tool_call_id: 'c', media_type: 'image/png', url: 'not a url' }), ev('TOOL_RESULT_END', { tool_call_id: 'c', state: 'success' }), end()],
    at: 2,
  },
  'as.url-normalised': {
    events: () => [start(), ev('TOOL_RESULT_START', { tool_call_id: 'c', tool_call_name: 't' }), ev('TOOL_RESULT_DATA_DELTA', { tool_call_id: 'c', media_type: 'image/png', url: 'HTTPS://Example.com' }), ev('TOOL_RESULT_END', { tool_call_id: 'c', state: 'success' }), end()],
    at: 2,
  },
  'as.state-transition': {
    events: () => [start(), ...call('c1'), ev('USER_CONFIRM_RESULT', { confirm_results: [{ confirmed: true, tool_call: { id: 'c1', name: 'Bash', input: '' } }] }), ...result('c1'), end()],
    at: 4,
  },
  'as.non-monotonic-created-at': { events: () => [start(), { ...ev('MODEL_CALL_START', { model_name: 'm' }), created_at: '2020-01-01T00:00:00' }, end()], at: 1 },
};

describe('AgentScope lifecycle diagnostics', () => {
  it('a clean stream has no diagnostics and applies every event', () => {
    const { diags, statuses } = check(clean());
    expect(diags).toEqual([]);
    expect(statuses.filter((s) => s === 'warned' || s === 'error' || s === 'invalid')).toEqual([]);
  });

  it('every documented code has a minimal stream here, and every stream code is documented', () => {
    expect(Object.keys(CASES).sort()).toEqual(AGENTSCOPE_DIAGNOSTIC_DOCS.map((d) => d.code).sort());
    expect(new Set(AGENTSCOPE_DIAGNOSTIC_DOCS.map((d) => d.code)).size).toBe(AGENTSCOPE_DIAGNOSTIC_DOCS.length);
  });

  for (const [code, c] of Object.entries(CASES)) {
    it(`${code} fires`, () => {
      const { diags } = check(c.events());
      const at = codesAt(diags, code);
      expect(at.length).toBeGreaterThan(0);
      if (c.at !== undefined) expect(at).toContain(c.at);
      const doc = AGENTSCOPE_DIAGNOSTIC_DOCS.find((d) => d.code === code)!;
      for (const d of diags.filter((x) => x.code === code)) expect(['error', 'warning', 'info']).toContain(d.severity);
      expect(doc.explanation.length).toBeGreaterThan(20);
    });
  }

  it('every warned/error status of the reference surfaces as a diagnostic at that index', () => {
    const events: Raw[] = [
      start(),
      ev('TEXT_BLOCK_END', { block_id: 'missing' }),
      { ...ev('MODEL_CALL_START', { model_name: 'm' }), reply_id: 'other' },
      ...data('d1', ['Y', 'PD8-Pz8_', 'é']),
      { type: 'CUSTOM', name: 'x', created_at: ts() },
      ev('TOOL_RESULT_START', { tool_call_id: 'c', tool_call_name: 't' }),
      ev('TOOL_RESULT_DATA_DELTA', { tool_call_id: 'c', media_type: 'x', url: '' }),
      end(),
    ];
    const { diags, statuses } = check(events);
    statuses.forEach((s, i) => {
      if (s === 'warned' || s === 'error') expect(diags.some((d) => d.index === i), `index ${i} (${s})`).toBe(true);
    });
    expect(statuses.filter((s) => s === 'error').length).toBe(4); // 3 chunks + the invalid URL
    // CUSTOM is routed to no reply (the reference would raise if handed one): still visible, as info.
    expect(codesAt(diags, 'as.custom-event')).toEqual([statuses.indexOf('custom')]);
  });

  it('tool-call input: integers JSON.parse rounds are told at TOOL_CALL_END, with path and value; others are not', () => {
    // Streamed in pieces that cut the literal: only the finished input counts.
    const pieces = (id: string, parts: string[]) => [
      ev('TOOL_CALL_START', { tool_call_id: id, tool_call_name: 'Bash' }),
      ...parts.map((delta) => ev('TOOL_CALL_DELTA', { tool_call_id: id, delta })),
      ev('TOOL_CALL_END', { tool_call_id: id }),
    ];
    const { diags } = check([
      start(),
      ...pieces('c1', ['{"user": {"ids": [1, 12345678', '90123456789]}, "n": -99999999999999999999', ', "s": "12345678901234567890"}']),
      ...pieces('c2', ['{"max": 9007199254740991, "printsAlike": 70065005125618410, "f": 1.2345678901234567e30}']),
      end(),
    ]);
    const found = diags.filter((d) => d.code === 'as.tool-input-unsafe-integer');
    expect(found.map((d) => [d.index, d.related])).toEqual([[5, [1]]]);
    expect(found[0].message).toBe('Tool call c1 input has the integer 1234567890123456789 at user.ids.1, beyond 2^53: Python\'s json.loads keeps it exact; ' +
      'JSON.parse of the input — any JavaScript frontend that shows or runs the call — reads 1234567890123456800 (and 1 more).');
    expect(found[0].severity).toBe('warning');
    // Invalid input is told as such, not scanned.
    expect(codesAt(check([start(), ...call('c3', '{"a": 12345678901234567890,'), end()]).diags, 'as.tool-input-unsafe-integer')).toEqual([]);
  });

  it('a parked reply (asking at end of stream) is info, not a warning', () => {
    const { diags } = check([start(), ...call('c1'), ev('REQUIRE_USER_CONFIRM', { tool_calls: [{ id: 'c1', name: 'Bash', input: '{}' }] })]);
    expect(diags.filter((d) => d.code === 'as.tool-call-unanswered').map((d) => d.severity)).toEqual(['info']);
  });

  it('a reply parked at the end of the stream is told as waiting for the client (info), not as never ended', () => {
    // The agent sends no REPLY_END while it waits on a confirmation or an external execution.
    const asking = check([start(), ...call('c1'), ev('REQUIRE_USER_CONFIRM', { tool_calls: [{ id: 'c1', name: 'Bash', input: '{}' }] })]).diags;
    const notEnded = asking.filter((d) => d.code === 'as.reply-not-ended');
    expect(notEnded.map((d) => [d.severity, d.message])).toEqual([
      ['info', 'Reply reply-1 is parked waiting for the client (tool call c1 asking): no REPLY_END until it resumes.'],
    ]);
    const submitted = check([start(), ...call('c1'), ev('REQUIRE_EXTERNAL_EXECUTION', { tool_calls: [{ id: 'c1', name: 'Bash', input: '{}' }] })]).diags;
    expect(submitted.filter((d) => d.code === 'as.reply-not-ended').map((d) => d.severity)).toEqual(['info']);
    // Confirmed but cut off before its result: nothing waits for the client any more — the reply never ended.
    const allowed = check([
      start(), ...call('c1'),
      ev('REQUIRE_USER_CONFIRM', { tool_calls: [{ id: 'c1', name: 'Bash', input: '{}' }] }),
      ev('USER_CONFIRM_RESULT', { confirm_results: [{ confirmed: true, tool_call: { id: 'c1', name: 'Bash', input: '{}' } }] }),
    ]).diags;
    expect(allowed.filter((d) => d.code === 'as.reply-not-ended').map((d) => [d.severity, d.message])).toEqual([['warning', 'Reply reply-1 never got a REPLY_END.']]);
  });

  it('continuation with a second REPLY_START after REPLY_END is not "after end"', () => {
    const { diags } = check([start(), ...text('t1'), end(), start(), ...text('t2'), end()]);
    expect(codesAt(diags, 'as.event-after-reply-end')).toEqual([]);
  });
});

describe('lifecycle: the block lookup remembered across events (lifecycle-tracker.ts)', () => {
  const ev2 = (reply: string, type: string, fields: Record<string, unknown> = {}) => ({ ...ev(type, fields), reply_id: reply });
  it('two replies with the same block id keep their own blocks', () => {
    const other = 'reply-2';
    const { diags } = check([
      start(), ev2(other, 'REPLY_START', { session_id: 's', name: 'B' }),
      ev('TEXT_BLOCK_START', { block_id: 't1' }), ev2(other, 'TEXT_BLOCK_START', { block_id: 't1' }),
      ev('TEXT_BLOCK_END', { block_id: 't1' }), // reply-1's t1 ended
      ev2(other, 'TEXT_BLOCK_DELTA', { block_id: 't1', delta: 'a' }), // reply-2's t1 still open: nothing to say
      ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: 'b' }), // reply-1's t1: after its end
      ev2(other, 'TEXT_BLOCK_DELTA', { block_id: 't1', delta: 'c' }),
      ev('THINKING_BLOCK_DELTA', { block_id: 't1', delta: 'd' }), // same id, other kind: unknown
    ]);
    expect(codesAt(diags, 'as.delta-after-end')).toEqual([6]);
    expect(codesAt(diags, 'as.unknown-block-id')).toEqual([8]);
  });

  it('pushDelta reports as push does, with created_at given as local time', () => {
    const events = [start(), ev('TEXT_BLOCK_START', { block_id: 't1' }),
      ...['09:00:05', '09:00:03', '', '09:00:03', '09:00:07'].map((t, i) => ({ ...ev('TEXT_BLOCK_DELTA', { block_id: i === 3 ? 'zz' : 't1', delta: 'x' }), created_at: t && `2026-03-01T${t}` })),
      ev('TEXT_BLOCK_END', { block_id: 't1' }), ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: 'late' })];
    const a = new AgentScopeLifecycle();
    const b = new AgentScopeLifecycle();
    events.forEach((e, i) => {
      const parsed = validateEvent(e);
      const viaPush = a.push(i, parsed);
      const d = e as { type: string; block_id?: string; delta?: string; created_at: string };
      const viaDelta = d.type === 'TEXT_BLOCK_DELTA'
        ? b.pushDelta(i, d.type, R, 'text', d.block_id as string, d.delta as string, d.created_at, d.created_at ? Date.parse(d.created_at) : NaN)
        : b.push(i, parsed);
      expect(viaDelta).toEqual(viaPush);
    });
    expect(a.finish()).toEqual(b.finish());
  });
});

describe('lifecycle on the public conformance cases', () => {
  const dir = path.resolve(import.meta.dirname, '../../..', '../shared/conformance/agentscope');
  for (const name of readdirSync(path.join(dir, 'cases')).filter((f) => f.endsWith('.json')).sort()) {
    it(`${name}: every warned/error/invalid event has a diagnostic at its index`, () => {
      const c = JSON.parse(readFileSync(path.join(dir, 'cases', name), 'utf8'));
      const expected = JSON.parse(readFileSync(path.join(dir, 'expected', name), 'utf8'));
      const lifecycle = new AgentScopeLifecycle();
      let msg = AssistantMsg(c.reply.name, [], { id: c.reply.id, created_at: c.reply.created_at });
      const diags: Diagnostic[] = [];
      c.events.forEach((raw: unknown, i: number) => {
        const parsed = parseWireEvent(JSON.stringify(raw));
        const outcome = parsed.ok ? applyEvent(msg, parsed.event) : undefined;
        if (outcome) msg = outcome.msg;
        diags.push(...lifecycle.push(i, parsed, outcome));
      });
      expected.status.forEach((s: string, i: number) => {
        if (s === 'warned' || s === 'error' || s === 'invalid') {
          expect(diags.some((d) => d.index === i && d.severity !== 'info') || diags.some((d) => d.index === i && d.code === 'as.custom-event'), `${name} #${i} ${s}`).toBe(true);
        }
      });
    });
  }
});
