// `Msg.append_event` of the AgentScope reference, as a pure function with structural sharing.
//
// Pure: the input message is never mutated; unchanged blocks (and the content array, when nothing in it changes) are
// shared with the result, so keeping the message after every event costs O(changed blocks) — what makes time travel
// cheap. When an event changes nothing, the very same object comes back (status 'unchanged').
//
// Semantics follow the reference code where it disagrees with its docs (conformance README "surprises"): blocks never
// close (deltas after END still apply), only the first block with a given id is updated, REPLY_END overwrites,
// CUSTOM raises, tool-call states follow the code not the state diagram, etc.
import type { ContentBlock, DataBlock, HintBlock, Msg, TextBlock, ToolCallBlock, ToolResultBlock } from './blocks.ts';
import type { AgentEvent, AgentEventOf, ReplyEvent } from './schema.ts';
import { SYSTEM_CLOCK, type Clock } from './message.ts';
import { PyError, pyB64Concat, pyRepr } from './py-compat.ts';
import { toolResultEvent } from './append-tool-result.ts';
import {
  findBlock,
  materialiseMedia,
  materialiseResult,
  notFound,
  PartialError,
  patch,
  textBlock,
  withAppended,
  withBlock,
  type ApplyError,
  type ApplyWarning,
  type Env,
  type Step,
} from './msg-edit.ts';

export type { ApplyError, ApplyWarning } from './msg-edit.ts';

export type ApplyStatus = 'changed' | 'unchanged' | 'warned' | 'error';

export interface ApplyOutcome {
  status: ApplyStatus;
  /** The message after the event (the input object itself unless status is 'changed' — see `error` note below). */
  msg: Msg;
  warning?: ApplyWarning;
  /**
   * Set when the reference raises. The message is returned as the reference leaves it: unchanged in every case but
   * one — a TOOL_RESULT_DATA_DELTA with an invalid URL on a result whose output is still a string: the reference
   * converts the output to a list *before* building the URLSource that raises, and that conversion stays.
   */
  error?: ApplyError;
}

export interface ApplyContext extends Partial<Clock> {
  /** Timestamp used where the reference reads `event.created_at` but the event carried none (its parse time). */
  eventTime?: string;
}

const CLASS_NAMES: Record<AgentEvent['type'], string> = {
  REPLY_START: 'ReplyStartEvent',
  REPLY_END: 'ReplyEndEvent',
  MODEL_CALL_START: 'ModelCallStartEvent',
  MODEL_CALL_END: 'ModelCallEndEvent',
  TEXT_BLOCK_START: 'TextBlockStartEvent',
  TEXT_BLOCK_DELTA: 'TextBlockDeltaEvent',
  TEXT_BLOCK_END: 'TextBlockEndEvent',
  DATA_BLOCK_START: 'DataBlockStartEvent',
  DATA_BLOCK_DELTA: 'DataBlockDeltaEvent',
  DATA_BLOCK_END: 'DataBlockEndEvent',
  THINKING_BLOCK_START: 'ThinkingBlockStartEvent',
  THINKING_BLOCK_DELTA: 'ThinkingBlockDeltaEvent',
  THINKING_BLOCK_END: 'ThinkingBlockEndEvent',
  HINT_BLOCK: 'HintBlockEvent',
  TOOL_CALL_START: 'ToolCallStartEvent',
  TOOL_CALL_DELTA: 'ToolCallDeltaEvent',
  TOOL_CALL_END: 'ToolCallEndEvent',
  TOOL_RESULT_START: 'ToolResultStartEvent',
  TOOL_RESULT_TEXT_DELTA: 'ToolResultTextDeltaEvent',
  TOOL_RESULT_DATA_DELTA: 'ToolResultDataDeltaEvent',
  TOOL_RESULT_END: 'ToolResultEndEvent',
  EXCEED_MAX_ITERS: 'ExceedMaxItersEvent',
  REQUIRE_USER_CONFIRM: 'RequireUserConfirmEvent',
  REQUIRE_EXTERNAL_EXECUTION: 'RequireExternalExecutionEvent',
  USER_CONFIRM_RESULT: 'UserConfirmResultEvent',
  USER_INTERRUPT: 'UserInterruptEvent',
  EXTERNAL_EXECUTION_RESULT: 'ExternalExecutionResultEvent',
  CUSTOM: 'CustomEvent',
};


/** Apply one validated event; returns the outcome (status, new message, warning/error). */
export function applyEvent(msg: Msg, event: AgentEvent, ctx: ApplyContext = {}): ApplyOutcome {
  if (event.type === 'CUSTOM') {
    // append_event reads event.reply_id first; CustomEvent has none → AttributeError.
    return { status: 'error', msg, error: { kind: 'custom-event', message: "AttributeError: 'CustomEvent' object has no attribute 'reply_id'" } };
  }
  if (event.reply_id !== msg.id) {
    const message = `Event ${CLASS_NAMES[event.type]} with reply_id ${pyRepr(event.reply_id)} does not match message id ${pyRepr(msg.id)}, skipping.`;
    return { status: 'warned', msg, warning: { kind: 'foreign-reply', message } };
  }
  const clock: Clock = { now: ctx.now ?? SYSTEM_CLOCK.now, newId: ctx.newId ?? SYSTEM_CLOCK.newId };
  const env: Env = { clock, eventTime: event.created_at ?? ctx.eventTime ?? clock.now() };
  try {
    const next = reduce(msg, event, env);
    if ('warning' in next) return { status: 'warned', msg, warning: next.warning };
    return { status: next.msg === msg ? 'unchanged' : 'changed', msg: next.msg };
  } catch (err) {
    if (err instanceof PartialError) return { status: 'error', msg: err.partial, error: err.error };
    if (err instanceof PyError) return { status: 'error', msg, error: { kind: 'invalid-base64', message: err.text } };
    throw err;
  }
}

/** `appendEvent(msg, event)`: the new message (the same object when nothing changed, warned or raised). */
export function appendEvent(msg: Msg, event: AgentEvent, ctx?: ApplyContext): Msg {
  return applyEvent(msg, event, ctx).msg;
}


function reduce(msg: Msg, event: ReplyEvent, env: Env): Step {
  switch (event.type) {
    case 'REPLY_START':
    case 'MODEL_CALL_START':
    case 'EXCEED_MAX_ITERS':
    case 'USER_INTERRUPT':
      return { msg };
    case 'REPLY_END':
      return { msg: patch(msg, { finished_at: env.eventTime, finished_reason: event.finished_reason, error: event.error }) };
    case 'MODEL_CALL_END':
      return { msg: addUsage(msg, event) };
    case 'TEXT_BLOCK_START':
      return { msg: withAppended(msg, textBlock('', env, event.block_id)) };
    case 'THINKING_BLOCK_START':
      return { msg: withAppended(msg, { type: 'thinking', thinking: '', id: event.block_id, created_at: env.clock.now(), finished_at: null }) };
    case 'DATA_BLOCK_START': {
      const block: DataBlock = {
        type: 'data',
        id: event.block_id,
        source: { type: 'base64', data: '', media_type: event.media_type },
        name: null,
        created_at: env.clock.now(),
        finished_at: null,
      };
      return { msg: withAppended(msg, block) };
    }
    case 'TEXT_BLOCK_DELTA':
    case 'TEXT_BLOCK_END':
    case 'THINKING_BLOCK_DELTA':
    case 'THINKING_BLOCK_END': {
      const kind = event.type.startsWith('TEXT') ? 'text' : 'thinking';
      const i = findBlock(msg, kind, event.block_id);
      if (i < 0) return notFound(kind, event.block_id);
      const block = msg.content[i] as TextBlock | Extract<ContentBlock, { type: 'thinking' }>;
      if (event.type === 'TEXT_BLOCK_END' || event.type === 'THINKING_BLOCK_END') {
        return { msg: withBlock(msg, i, patch(block, { finished_at: env.eventTime })) };
      }
      if (event.delta === '') return { msg };
      const next = block.type === 'text' ? { ...block, text: block.text + event.delta } : { ...block, thinking: block.thinking + event.delta };
      return { msg: withBlock(msg, i, next) };
    }
    case 'DATA_BLOCK_DELTA':
    case 'DATA_BLOCK_END': {
      const i = findBlock(msg, 'data', event.block_id);
      if (i < 0) return notFound('data', event.block_id);
      const block = msg.content[i] as DataBlock;
      if (event.type === 'DATA_BLOCK_END') return { msg: withBlock(msg, i, patch(block, { finished_at: env.eventTime })) };
      if (!event.data) return { msg }; // empty chunk: a no-op in the reference (`elif … and event.data`)
      // Top-level data blocks only come from DATA_BLOCK_START, so the source is base64. The delta's media_type is ignored.
      const source = block.source as Extract<DataBlock['source'], { type: 'base64' }>;
      const data = pyB64Concat(source.data, event.data);
      return { msg: withBlock(msg, i, patch(block, { source: patch(source, { data }) })) };
    }
    case 'HINT_BLOCK': {
      const created_at = env.clock.now();
      const hint: HintBlock = {
        type: 'hint',
        hint: typeof event.hint === 'string' ? event.hint : event.hint.map((b) => materialiseMedia(b, env)),
        id: event.block_id,
        source: event.source,
        created_at,
        finished_at: created_at, // the block's own creation time, not the event's
      };
      return { msg: withAppended(msg, hint) };
    }
    case 'TOOL_CALL_START': {
      const call: ToolCallBlock = {
        type: 'tool_call',
        id: event.tool_call_id,
        name: event.tool_call_name,
        input: '',
        state: 'pending',
        suggested_rules: [],
        created_at: env.clock.now(),
        finished_at: null,
      };
      return { msg: withAppended(msg, call) };
    }
    case 'TOOL_CALL_DELTA':
    case 'TOOL_CALL_END': {
      const i = findBlock(msg, 'tool_call', event.tool_call_id);
      if (i < 0) return notFound('tool_call', event.tool_call_id);
      const call = msg.content[i] as ToolCallBlock;
      if (event.type === 'TOOL_CALL_END') return { msg: withBlock(msg, i, patch(call, { finished_at: env.eventTime })) };
      return { msg: event.delta === '' ? msg : withBlock(msg, i, { ...call, input: call.input + event.delta }) };
    }
    case 'TOOL_RESULT_START': {
      const result: ToolResultBlock = {
        type: 'tool_result',
        id: event.tool_call_id,
        name: event.tool_call_name,
        output: [],
        state: 'running',
        metadata: {},
        created_at: env.clock.now(),
        finished_at: null,
      };
      return { msg: withAppended(msg, result) };
    }
    case 'TOOL_RESULT_TEXT_DELTA':
    case 'TOOL_RESULT_DATA_DELTA':
    case 'TOOL_RESULT_END':
      return toolResultEvent(msg, event, env);
    case 'REQUIRE_USER_CONFIRM':
    case 'REQUIRE_EXTERNAL_EXECUTION': {
      let next = msg;
      for (const wanted of event.tool_calls) {
        const i = findBlock(next, 'tool_call', wanted.id);
        if (i < 0) continue; // unknown ids are skipped silently
        const call = next.content[i] as ToolCallBlock;
        const changes: Partial<ToolCallBlock> =
          event.type === 'REQUIRE_USER_CONFIRM' ? { state: 'asking', suggested_rules: wanted.suggested_rules } : { state: 'submitted' };
        next = withBlock(next, i, patch(call, changes));
      }
      return { msg: next };
    }
    case 'USER_CONFIRM_RESULT': {
      let next = msg;
      for (const result of event.confirm_results) {
        const i = findBlock(next, 'tool_call', result.tool_call.id);
        const call = next.content[i] as ToolCallBlock | undefined;
        if (!call || call.state !== 'asking') continue; // only ASKING calls transition; stale results are skipped
        next = withBlock(next, i, { ...call, state: result.confirmed ? 'allowed' : 'finished' });
      }
      return { msg: next };
    }
    case 'EXTERNAL_EXECUTION_RESULT': {
      // De-duplicate against results that existed before this event only; the calls stay 'submitted'.
      const existing = new Set(msg.content.filter((b) => b.type === 'tool_result').map((b) => b.id));
      const added = event.execution_results.filter((r) => !existing.has(r.id)).map((r) => materialiseResult(r, env));
      return { msg: withAppended(msg, ...added) };
    }
  }
}

function addUsage(msg: Msg, e: AgentEventOf<'MODEL_CALL_END'>): Msg {
  const u = msg.usage;
  if (u === null) {
    const usage = {
      input_tokens: e.input_tokens,
      output_tokens: e.output_tokens,
      cache_input_tokens: e.cache_input_tokens,
      cache_creation_input_tokens: e.cache_creation_input_tokens,
    };
    return { ...msg, usage };
  }
  const usage = patch(u, {
    input_tokens: u.input_tokens + e.input_tokens,
    output_tokens: u.output_tokens + e.output_tokens,
    cache_input_tokens: u.cache_input_tokens + e.cache_input_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens + e.cache_creation_input_tokens,
  });
  return usage === u ? msg : { ...msg, usage };
}

