// Runs one AgentScope conformance case (/work/shared/conformance/README.md) through Replyscope's own core and
// produces the output object of the expected files, normalised the same way.
import type { ContentBlock, MediaBlock, Msg } from './blocks.ts';
import { applyEvent } from './append-event.ts';
import { AssistantMsg, SystemMsg, UserMsg, type Clock } from './message.ts';
import { parseWireEvent } from './schema.ts';

export const GENERATED_ID = '<generated-id>';
export const GENERATED_TS = '<generated-ts>';

/** The conformance clock: every generated id/timestamp is a placeholder, exactly as the expected files write them. */
const PLACEHOLDER_CLOCK: Clock = { now: () => GENERATED_TS, newId: () => GENERATED_ID };

export interface AgentScopeCaseOutput {
  initial: Record<string, unknown>;
  step_indices: number[];
  steps: Record<string, unknown>[];
  final: Record<string, unknown>;
  status: ('changed' | 'unchanged' | 'warned' | 'invalid' | 'error')[];
  invalid: { index: number; type: unknown; invalid: string }[];
  errors: { index: number; type: unknown; error: string }[];
  log: { index: number; message: string }[];
}

export class ConformanceCaseError extends Error {}

interface CaseReply {
  id: string;
  name: string;
  role: 'user' | 'assistant' | 'system';
  created_at?: string;
}

function readCase(caseJson: unknown): { reply: CaseReply; events: unknown[]; snapshotEvery?: number } {
  if (caseJson === null || typeof caseJson !== 'object') throw new ConformanceCaseError('case must be a JSON object');
  const c = caseJson as Record<string, unknown>;
  const r = c.reply as Record<string, unknown> | undefined;
  if (!r || typeof r !== 'object') throw new ConformanceCaseError('case.reply must be an object {id, name, role?, created_at?}');
  if (typeof r.id !== 'string' || typeof r.name !== 'string') throw new ConformanceCaseError('case.reply.id and case.reply.name must be strings');
  const role = r.role ?? 'assistant';
  if (role !== 'user' && role !== 'assistant' && role !== 'system') throw new ConformanceCaseError(`case.reply.role must be user/assistant/system, got ${JSON.stringify(role)}`);
  if (r.created_at !== undefined && r.created_at !== null && typeof r.created_at !== 'string') throw new ConformanceCaseError('case.reply.created_at must be a string');
  if (!Array.isArray(c.events)) throw new ConformanceCaseError('case.events must be an array');
  const se = c.snapshot_every;
  if (se !== undefined && se !== null && !(typeof se === 'number' && Number.isInteger(se) && se > 0)) {
    throw new ConformanceCaseError('case.snapshot_every must be a positive integer');
  }
  return {
    reply: { id: r.id, name: r.name, role, created_at: (r.created_at as string | undefined) || undefined },
    events: c.events,
    snapshotEvery: (se as number | undefined) ?? undefined,
  };
}

/** The reply message before any event, built by the reference factory for the role. */
export function initialCaseMessage(reply: CaseReply, clock: Clock): Msg {
  const options = { id: reply.id, created_at: reply.created_at, clock };
  if (reply.role === 'user') return UserMsg(reply.name, [], options);
  if (reply.role === 'system') return SystemMsg(reply.name, [], options);
  return AssistantMsg(reply.name, [], options);
}

function stripBlock(block: ContentBlock | MediaBlock): Record<string, unknown> {
  const { created_at: _drop, ...rest } = block as ContentBlock & { created_at?: string };
  if (rest.type === 'hint' && Array.isArray(rest.hint)) return { ...rest, hint: rest.hint.map(stripBlock) };
  if (rest.type === 'tool_result' && Array.isArray(rest.output)) return { ...rest, output: rest.output.map(stripBlock) };
  return rest;
}

/** Normalise as the expected files do: no block `created_at`; the message's only when the case gave none. */
export function normaliseCaseMessage(msg: Msg, keepCreatedAt: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...msg, content: msg.content.map(stripBlock) };
  if (!keepCreatedAt) delete out.created_at;
  return out;
}

function eventType(raw: unknown): unknown {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? ((raw as Record<string, unknown>).type ?? null) : null;
}

/** Run one case. Events given as objects are serialised to wire text first; events given as strings are wire text. */
export function runAgentScopeCase(caseJson: unknown): AgentScopeCaseOutput {
  const { reply, events, snapshotEvery } = readCase(caseJson);
  const keep = reply.created_at !== undefined;
  let msg = initialCaseMessage(reply, PLACEHOLDER_CLOCK);
  const out: AgentScopeCaseOutput = { initial: normaliseCaseMessage(msg, keep), step_indices: [], steps: [], final: {}, status: [], invalid: [], errors: [], log: [] };
  let snapshot = out.initial;
  events.forEach((raw, index) => {
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
    const parsed = parseWireEvent(text);
    if (!parsed.ok) {
      let type = eventType(raw);
      if (typeof raw === 'string') {
        try {
          type = eventType(JSON.parse(raw));
        } catch {
          type = null;
        }
      }
      out.status.push('invalid');
      out.invalid.push({ index, type, invalid: parsed.issues.map((i) => `${i.path || '<root>'}: ${i.message}`).join('; ') });
    } else {
      const outcome = applyEvent(msg, parsed.event, PLACEHOLDER_CLOCK);
      out.status.push(outcome.status);
      if (outcome.warning) out.log.push({ index, message: `WARNING: ${outcome.warning.message}` });
      if (outcome.error) out.errors.push({ index, type: parsed.event.type, error: outcome.error.message });
      if (outcome.msg !== msg) snapshot = normaliseCaseMessage(outcome.msg, keep);
      msg = outcome.msg;
    }
    const last = index === events.length - 1;
    if (snapshotEvery === undefined || (index + 1) % snapshotEvery === 0 || last) {
      out.step_indices.push(index);
      out.steps.push(snapshot);
    }
  });
  out.final = snapshot;
  return out;
}
