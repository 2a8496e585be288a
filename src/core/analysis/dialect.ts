// Dialect detection: which protocol a stream speaks, decided from the shape of its first decisive events.
// Detection is deliberately structural (type names and key casing), not schema validation: an invalid event of a
// known protocol must still be recognised so it can be reported against that protocol's schema.
import { detectPiForm } from '../pi/validate.ts';
import { isPiProxyRequest, type RequestBodyText } from '../capture/stream-request.ts';
import type { Dialect } from './types.ts';

const LEGACY_TYPES = /^(RUN_STARTED|RUN_FINISHED|RUN_ERROR|BINARY_BLOCK_[A-Z_]+)$/;
const LEGACY_KEYS = ['replyId', 'blockId', 'toolCallId', 'createdAt', 'sessionId'];
const SNAKE_KEYS = ['reply_id', 'block_id', 'tool_call_id', 'created_at', 'session_id'];

/** The dialect one event suggests, or undefined when it says nothing decisive. */
export function dialectOfEvent(raw: unknown): Dialect | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const obj = raw as Record<string, unknown>;
  const type = obj.type;
  if (typeof type !== 'string') return undefined;
  // pi-ai's AssistantMessageEvent carries the whole message so far; the proxy form strips it.
  const pi = detectPiForm(raw);
  if (pi) return pi === 'agent' ? 'pi-agent' : pi === 'assistant' ? 'pi-assistant' : 'pi-proxy';
  if (/^[A-Z][A-Z0-9_]*$/.test(type)) {
    if (LEGACY_TYPES.test(type)) return 'agentscope-legacy';
    if (LEGACY_KEYS.some((k) => k in obj) && !SNAKE_KEYS.some((k) => k in obj)) return 'agentscope-legacy';
    return 'agentscope';
  }
  return undefined;
}

/**
 * Incremental detector: the first decisive event fixes the dialect, except that a legacy hint upgrades a plain
 * AgentScope guess (legacy streams share most type names with the current protocol).
 */
export class DialectDetector {
  private current: Dialect = 'unknown';
  private decidedAt = -1;

  get dialect(): Dialect {
    return this.current;
  }

  /** Index of the event that decided the dialect (-1 while unknown). */
  get decidedBy(): number {
    return this.decidedAt;
  }

  push(raw: unknown, index: number): Dialect {
    const d = dialectOfEvent(raw);
    if (d === undefined) return this.current;
    if (this.current === 'unknown' || (this.current === 'agentscope' && d === 'agentscope-legacy')) {
      this.current = d;
      this.decidedAt = index;
    }
    return this.current;
  }
}

export function isAgentScope(d: Dialect): boolean {
  return d === 'agentscope' || d === 'agentscope-legacy';
}

export function isPi(d: Dialect): boolean {
  return d === 'pi-proxy' || d === 'pi-assistant' || d === 'pi-agent';
}

/**
 * The dialect the page's client reads, from what the stream speaks and the request that asked for it. pi-ai's
 * AssistantMessageEvents (they carry `partial`) answering streamProxy's request ({model: {api…}, context}) are read
 * by streamProxy — the one client that sends it — which ignores `partial` and rebuilds the message from the deltas
 * and the events' own fields: a server forwarding pi-ai's events unstripped gives its client tool calls without
 * id and name (pi-ai's toolcall_start has neither) and a message without usage. Reconstructed as the client holds it.
 */
export function clientDialect(streamDialect: Dialect, requestBody: RequestBodyText | undefined): Dialect {
  return streamDialect === 'pi-assistant' && isPiProxyRequest(requestBody) ? 'pi-proxy' : streamDialect;
}
