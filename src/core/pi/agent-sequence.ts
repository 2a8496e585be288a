// Ordering rules of pi-agent-core AgentEvent streams (agent-loop.js): agent_start → (turn_start → message_start →
// message_update* → message_end … tool_execution_start/update/end … → turn_end)+ → agent_end. Pure fold.
import type { Diagnostic } from '../diagnostics/types.ts';
import { shownString } from '../diagnostics/shown.ts';
import { PI_CODES } from './diagnostic-codes.ts';

export interface AgentSequenceState {
  readonly agentAt?: number;
  readonly turnAt?: number;
  readonly message?: { readonly at: number; readonly role: unknown };
  /** Running tool executions: toolCallId → index of tool_execution_start. */
  readonly tools: Readonly<Record<string, number>>;
  readonly sawAgentEnd: boolean;
  /** A turn_end came and no turn_start since: the loop sends one before any further message. */
  readonly betweenTurns?: number;
}

export const initialAgentSequence: AgentSequenceState = Object.freeze({ tools: Object.freeze({}), sawAgentEnd: false });

const warn = (index: number, message: string, related?: number): Diagnostic => ({
  code: PI_CODES.agentSequence,
  severity: 'warning',
  index,
  message,
  ...(related !== undefined ? { related: [related] } : {}),
});

/** One AgentEvent (or `{type: '<end>'}` at the end of the body). */
export function checkAgentSequence(
  s: AgentSequenceState,
  raw: unknown,
  index: number,
): { state: AgentSequenceState; diagnostics: Diagnostic[] } {
  const ev = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const out: Diagnostic[] = [];
  let next: AgentSequenceState = s;
  const id = typeof ev.toolCallId === 'string' ? ev.toolCallId : undefined;
  switch (ev.type) {
    case 'agent_start':
      if (s.agentAt !== undefined) out.push(warn(index, 'agent_start while the previous run has not ended', s.agentAt));
      next = { ...s, agentAt: index };
      break;
    case 'turn_start':
      if (s.agentAt === undefined) out.push(warn(index, 'turn_start outside agent_start…agent_end'));
      if (s.turnAt !== undefined) out.push(warn(index, 'turn_start before the previous turn_end', s.turnAt));
      next = { ...s, turnAt: index, betweenTurns: undefined };
      break;
    case 'message_start':
      if (s.message) out.push(warn(index, 'message_start before the previous message_end', s.message.at));
      // Told here, where the turn_start is missing (the turn_end without it came many events later).
      if (s.betweenTurns !== undefined) out.push(warn(index, 'message_start between turns: no turn_start since the last turn_end', s.betweenTurns));
      next = { ...s, message: { at: index, role: (ev.message as { role?: unknown } | undefined)?.role } };
      break;
    case 'message_update':
      if (!s.message) out.push(warn(index, 'message_update without message_start'));
      else if (s.message.role !== 'assistant') out.push(warn(index, `message_update for a ${shownString(s.message.role)} message`, s.message.at));
      break;
    case 'message_end':
      if (!s.message) out.push(warn(index, 'message_end without message_start'));
      next = { ...s, message: undefined };
      break;
    case 'turn_end':
      if (s.turnAt === undefined) out.push(warn(index, 'turn_end without turn_start'));
      if (s.message) out.push(warn(index, 'turn_end while a message is still open', s.message.at));
      next = { ...s, turnAt: undefined, message: undefined, betweenTurns: index };
      break;
    case 'agent_end':
      if (s.agentAt === undefined) out.push(warn(index, 'agent_end without agent_start'));
      if (s.turnAt !== undefined) out.push(warn(index, 'agent_end while a turn is still open', s.turnAt));
      next = { ...s, agentAt: undefined, turnAt: undefined, message: undefined, sawAgentEnd: true, betweenTurns: undefined };
      break;
    case 'tool_execution_start':
      if (id !== undefined) next = { ...s, tools: { ...s.tools, [id]: index } };
      break;
    case 'tool_execution_update':
    case 'tool_execution_end':
      if (id === undefined || !Object.hasOwn(s.tools, id)) {
        out.push(warn(index, `${String(ev.type)} for tool call ${JSON.stringify(id)} that has no tool_execution_start`));
      } else if (ev.type === 'tool_execution_end') {
        const { [id]: _done, ...rest } = s.tools;
        next = { ...s, tools: rest };
      }
      break;
    case '<end>':
      if (s.agentAt !== undefined || !s.sawAgentEnd) {
        out.push({ code: PI_CODES.noTerminal, severity: 'error', index, message: 'the agent stream ended without agent_end' });
      }
      for (const [toolId, at] of Object.entries(s.tools)) out.push(warn(index, `tool call ${toolId} never got tool_execution_end`, at));
      break;
  }
  return { state: next, diagnostics: out };
}
