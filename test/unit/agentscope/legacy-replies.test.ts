// Legacy (agentscope-typescript camelCase) normalisation and session-stream grouping into replies.
import { describe, expect, it } from 'vitest';
import { isLegacyEvent, LEGACY_TYPE_MAP, normaliseLegacyEvent } from '../../../src/core/agentscope/legacy.ts';
import { getTextContent } from '../../../src/core/agentscope/message.ts';
import { AgentScopeReplies } from '../../../src/core/agentscope/replies.ts';
import { validateEvent, type AgentEvent } from '../../../src/core/agentscope/schema.ts';

const valid = (raw: unknown): AgentEvent => {
  const r = validateEvent(raw);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.event;
};

describe('legacy dialect', () => {
  it('maps every legacy-only type name to a current one', () => {
    for (const [legacy, current] of Object.entries(LEGACY_TYPE_MAP)) {
      const out = normaliseLegacyEvent({ type: legacy, replyId: 'r' });
      expect(out.legacy).toBe(true);
      expect((out.raw as { type: string }).type).toBe(current);
      expect(out.notes[0]).toBe(`type ${legacy} → ${current}`);
    }
  });

  it('turns a legacy stream into valid current events, nested keys included', () => {
    const legacy = [
      { type: 'RUN_STARTED', id: 'e1', createdAt: '2026-01-01T00:00:00', sessionId: 's', replyId: 'r', name: 'Friday', role: 'assistant' },
      { type: 'MODEL_CALL_ENDED', id: 'e2', createdAt: '2026-01-01T00:00:01', replyId: 'r', inputTokens: 3, outputTokens: 4 },
      { type: 'BINARY_BLOCK_START', id: 'e3', createdAt: '2026-01-01T00:00:02', replyId: 'r', blockId: 'b', mediaType: 'image/png' },
      { type: 'BINARY_BLOCK_DELTA', id: 'e4', createdAt: '2026-01-01T00:00:03', replyId: 'r', blockId: 'b', data: 'YQ==', mediaType: 'image/png' },
      { type: 'TOOL_CALL_START', id: 'e5', createdAt: '2026-01-01T00:00:04', replyId: 'r', toolCallId: 'c', toolCallName: 'Bash' },
      { type: 'REQUIRE_USER_CONFIRM', id: 'e6', createdAt: '2026-01-01T00:00:05', replyId: 'r', toolCalls: [{ type: 'tool_call', id: 'c', name: 'Bash', input: '', suggestedRules: [{ toolName: 'Bash', ruleContent: null, behavior: 'ask', source: 'x' }] }] },
      { type: 'TOOL_RESULT_BINARY_DELTA', id: 'e7', createdAt: '2026-01-01T00:00:06', replyId: 'r', toolCallId: 'c', mediaType: 'image/png', url: 'https://x.org' },
      { type: 'RUN_FINISHED', id: 'e8', createdAt: '2026-01-01T00:00:07', sessionId: 's', replyId: 'r', metadata: { keepMe: 1 } },
    ];
    const events = legacy.map((e) => normaliseLegacyEvent(e));
    expect(events.every((e) => e.legacy)).toBe(true);
    const parsed = events.map((e) => validateEvent(e.raw));
    expect(parsed.map((p) => p.ok)).toEqual(legacy.map(() => true));
    const six = parsed[5];
    expect(six.ok && six.event.type === 'REQUIRE_USER_CONFIRM' && six.event.tool_calls[0].suggested_rules[0].tool_name).toBe('Bash');
    // Free-form payloads keep the application's keys.
    expect((events[7].raw as { metadata: unknown }).metadata).toEqual({ keepMe: 1 });
    expect(events[0].notes).toContain('replyId → reply_id');
  });

  it('leaves current events alone and prefers an existing snake_case key', () => {
    const current = { type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: 'x' };
    expect(isLegacyEvent(current)).toBe(false);
    expect(normaliseLegacyEvent(current).raw).toBe(current);
    expect(isLegacyEvent({ ...current, traceId: 't' })).toBe(false); // an application's camelCase extra is not legacy
    const mixed = normaliseLegacyEvent({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', replyId: 'other', block_id: 'b', delta: 'x' });
    expect((mixed.raw as { reply_id: string }).reply_id).toBe('r');
    expect(mixed.notes).toContain('replyId dropped (reply_id also present)');
  });
});

describe('replies grouping', () => {
  const t = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}`;
  const stream: unknown[] = [
    { type: 'REPLY_START', created_at: t(0), reply_id: 'r1', session_id: 's', name: 'Friday' },
    { type: 'TEXT_BLOCK_START', created_at: t(1), reply_id: 'r1', block_id: 'a' },
    { type: 'TEXT_BLOCK_DELTA', created_at: t(2), reply_id: 'r1', block_id: 'a', delta: 'first' },
    { type: 'CUSTOM', created_at: t(3), name: 'team_updated' },
    { type: 'REPLY_START', created_at: t(4), reply_id: 'r2', session_id: 's', name: 'Alice', role: 'user' },
    { type: 'TEXT_BLOCK_DELTA', created_at: t(5), reply_id: 'ghost', block_id: 'z', delta: 'orphaned' },
    { type: 'TEXT_BLOCK_START', created_at: t(6), reply_id: 'r2', block_id: 'b' },
    { type: 'TEXT_BLOCK_DELTA', created_at: t(7), reply_id: 'r2', block_id: 'b', delta: 'second' },
    { type: 'REPLY_END', created_at: t(8), reply_id: 'r2', session_id: 's' },
    { type: 'REPLY_START', created_at: t(9), reply_id: 'r1', session_id: 's', name: 'Friday' },
    { type: 'TEXT_BLOCK_DELTA', created_at: t(10), reply_id: 'r1', block_id: 'a', delta: ' resumed' },
    { type: 'REPLY_END', created_at: t(11), reply_id: 'r1', session_id: 's' },
  ];

  it('groups by reply_id, keeps CUSTOM and orphans apart, continues a reply on a second REPLY_START', () => {
    const replies = new AgentScopeReplies({ now: () => 'T', newId: () => 'ID' });
    const pushed = stream.map((raw, i) => replies.push(valid(raw), i));
    expect(pushed.map((p) => (p.kind === 'reply' ? p.replyId : 'custom'))).toEqual(['r1', 'r1', 'r1', 'custom', 'r2', 'ghost', 'r2', 'r2', 'r2', 'r1', 'r1', 'r1']);
    expect(replies.customIndices).toEqual([3]);
    expect(replies.replies.map((r) => [r.id, r.orphan, r.eventIndices])).toEqual([
      ['r1', false, [0, 1, 2, 9, 10, 11]],
      ['r2', false, [4, 6, 7, 8]],
      ['ghost', true, [5]],
    ]);
    const r1 = replies.get('r1')!;
    expect(getTextContent(r1.msg)).toBe('first resumed');
    expect(r1.initial).toMatchObject({ id: 'r1', name: 'Friday', role: 'assistant', content: [], created_at: t(0), finished_at: null });
    expect(r1.msg.finished_at).toBe(t(11));
    expect(replies.get('r2')!.msg).toMatchObject({ role: 'user', name: 'Alice', finished_reason: 'completed' });
    expect(replies.get('ghost')!.outcomes[0].status).toBe('warned'); // the block never started in that reply
    const created = pushed.filter((p) => p.kind === 'reply' && p.created).length;
    expect(created).toBe(3);
  });
});
