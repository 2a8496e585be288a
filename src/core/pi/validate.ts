// One entry point that tells which pi form an event is and validates it against that form's schema.
import type { z } from 'zod';
import type { SchemaIssue } from '../analysis/types.ts';
import {
  PI_AGENT_EVENT_TYPES,
  PI_PROXY_EVENT_TYPES,
  PiAgentEventSchema,
  PiAssistantMessageEventSchema,
  PiProxyEventSchema,
  type PiAgentEvent,
  type PiAssistantMessageEvent,
  type PiProxyEvent,
} from './schema.ts';

export type PiEventForm = 'proxy' | 'assistant' | 'agent';

export type PiValidation =
  | { ok: true; form: 'proxy'; event: PiProxyEvent; extras: string[] }
  | { ok: true; form: 'assistant'; event: PiAssistantMessageEvent; extras: string[] }
  | { ok: true; form: 'agent'; event: PiAgentEvent; extras: string[] }
  | { ok: false; form?: PiEventForm; issues: SchemaIssue[] };

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Which form an event most likely is: AgentEvent by its type; an AssistantMessageEvent carries the message
 * (`partial`, done's `message`, error's `error` object); anything else with a pi type is the proxy form.
 * Undefined when the type is not a pi type at all.
 */
export function detectPiForm(raw: unknown): PiEventForm | undefined {
  if (!isObject(raw) || typeof raw.type !== 'string') return undefined;
  if ((PI_AGENT_EVENT_TYPES as readonly string[]).includes(raw.type)) return 'agent';
  if (!(PI_PROXY_EVENT_TYPES as readonly string[]).includes(raw.type)) return undefined;
  if ('partial' in raw || (raw.type === 'done' && 'message' in raw) || (raw.type === 'error' && isObject(raw.error))) {
    return 'assistant';
  }
  return 'proxy';
}

/** Keys each variant of a discriminated union declares, per `type`. */
function knownKeys(schema: z.ZodDiscriminatedUnion): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const option of schema.options as unknown as z.ZodObject[]) {
    const keys = Object.keys(option.shape);
    const literal = option.shape.type as unknown as z.ZodLiteral<string>;
    map.set(literal.value, new Set(keys));
  }
  return map;
}

const KNOWN = {
  proxy: knownKeys(PiProxyEventSchema as unknown as z.ZodDiscriminatedUnion),
  assistant: knownKeys(PiAssistantMessageEventSchema as unknown as z.ZodDiscriminatedUnion),
  agent: knownKeys(PiAgentEventSchema as unknown as z.ZodDiscriminatedUnion),
};
const SCHEMAS = { proxy: PiProxyEventSchema, assistant: PiAssistantMessageEventSchema, agent: PiAgentEventSchema };

function toIssues(error: z.ZodError): SchemaIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
}

/** Top-level keys the schema of this event type does not declare (accepted, but worth showing). */
function extrasOf(form: PiEventForm, raw: Record<string, unknown>): string[] {
  const known = KNOWN[form].get(raw.type as string);
  return known ? Object.keys(raw).filter((k) => !known.has(k)) : [];
}

/**
 * Validates one parsed pi event. `form` forces a form (e.g. the connection's dialect); otherwise it is detected.
 * Unknown or missing `type` is reported as an issue (the reference client skips such frames with a warning).
 */
export function validatePiEvent(raw: unknown, form?: PiEventForm): PiValidation {
  // The analysis asks twice per event (the lifecycle's diagnostics, then the event view): the last answer is kept.
  if (raw === last.raw && form === last.form && last.result !== undefined) return last.result;
  const result = validateUncached(raw, form);
  if (isObject(raw)) {
    last.raw = raw;
    last.form = form;
    last.result = result;
  }
  return result;
}

const last: { raw: unknown; form: PiEventForm | undefined; result: PiValidation | undefined } = { raw: undefined, form: undefined, result: undefined };

function validateUncached(raw: unknown, form?: PiEventForm): PiValidation {
  if (!isObject(raw)) return { ok: false, issues: [{ path: '(root)', message: 'a pi event must be a JSON object' }] };
  const f = form ?? detectPiForm(raw);
  if (!f) {
    const message =
      typeof raw.type === 'string' ? `unknown pi event type "${raw.type}"` : 'missing string field "type"';
    return { ok: false, issues: [{ path: 'type', message }] };
  }
  const parsed = SCHEMAS[f].safeParse(raw);
  if (!parsed.success) return { ok: false, form: f, issues: toIssues(parsed.error) };
  const extras = extrasOf(f, raw);
  switch (f) {
    case 'proxy':
      return { ok: true, form: f, event: parsed.data as PiProxyEvent, extras };
    case 'assistant':
      return { ok: true, form: f, event: parsed.data as PiAssistantMessageEvent, extras };
    default:
      return { ok: true, form: 'agent', event: parsed.data as PiAgentEvent, extras };
  }
}
