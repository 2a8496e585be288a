// Reading the `input` of POST /chat/ the way the service's pydantic ChatRequest does: a Msg (or list of Msg), a
// USER_CONFIRM_RESULT / EXTERNAL_EXECUTION_RESULT event, or null. A resume event is re-serialised as
// `model_dump(mode="json")` before it is broadcast, so defaults the page left out appear on the wire.

import type { IdSource } from './wire/ids.ts';
import type { WireEvent } from './wire/events.ts';
import { textBlock, toolCallBlock, toolResultBlock, type DataBlock, type TextBlock } from './wire/blocks.ts';

export class InputError extends Error {
  constructor(message: string, readonly status = 422) {
    super(message);
  }
}

export type ChatInput =
  | { kind: 'messages'; text: string; metadata: unknown }
  | { kind: 'resume'; resume: 'confirm' | 'external'; event: WireEvent }
  | { kind: 'none' };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function req<T>(o: Obj, key: string, check: (v: unknown) => v is T, where: string): T {
  const v = o[key];
  if (!check(v)) throw new InputError(`${where}.${key}: field required or of the wrong type`);
  return v;
}
const isStr = (v: unknown): v is string => typeof v === 'string';
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isArr = (v: unknown): v is unknown[] => Array.isArray(v);
const CALL_STATES = ['pending', 'asking', 'allowed', 'submitted', 'finished'] as const;
const RESULT_STATES = ['success', 'error', 'interrupted', 'denied', 'running'] as const;

/** An optional enum field: absent → undefined (the default applies), present but not a member → 422 like pydantic. */
function optionalEnum<T extends string>(o: Obj, key: string, values: readonly T[], where: string): T | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
  throw new InputError(`${where}.${key}: Input should be ${values.map((x) => `'${x}'`).join(', ')}`);
}

export function readChatInput(input: unknown, ids: IdSource): ChatInput {
  if (input === null || input === undefined) return { kind: 'none' };
  if (isObj(input) && input.type === 'USER_CONFIRM_RESULT') return { kind: 'resume', resume: 'confirm', event: confirmEvent(input, ids) };
  if (isObj(input) && input.type === 'EXTERNAL_EXECUTION_RESULT') return { kind: 'resume', resume: 'external', event: externalEvent(input, ids) };
  const msgs = Array.isArray(input) ? input : [input];
  if (msgs.length === 0) throw new InputError('input: an empty list of messages');
  const texts: string[] = [];
  let metadata: unknown;
  msgs.forEach((m, i) => {
    if (!isObj(m) || !isStr(m.role) || !isStr(m.name)) {
      throw new InputError(`input[${i}]: expected a Msg {name, role, content} or a USER_CONFIRM_RESULT / EXTERNAL_EXECUTION_RESULT event`);
    }
    const content = m.content;
    if (typeof content === 'string') {
      texts.push(content);
    } else if (isArr(content)) {
      for (const b of content) if (isObj(b) && b.type === 'text' && isStr(b.text)) texts.push(b.text);
    } else {
      throw new InputError(`input[${i}].content: expected a string or a list of blocks`);
    }
    metadata ??= m.metadata;
  });
  return { kind: 'messages', text: texts.join('\n'), metadata };
}

function eventBase(o: Obj, ids: IdSource) {
  return {
    id: isStr(o.id) ? o.id : ids.id(),
    created_at: isStr(o.created_at) ? o.created_at : ids.now(),
    metadata: isObj(o.metadata) ? o.metadata : {},
  };
}

function confirmEvent(o: Obj, ids: IdSource): WireEvent {
  const where = 'input';
  const replyId = req(o, 'reply_id', isStr, where);
  const results = req(o, 'confirm_results', isArr, where).map((r, i) => {
    if (!isObj(r)) throw new InputError(`${where}.confirm_results[${i}]: expected an object`);
    const call = req(r, 'tool_call', isObj, `${where}.confirm_results[${i}]`);
    const w = `${where}.confirm_results[${i}].tool_call`;
    return {
      confirmed: req(r, 'confirmed', isBool, `${where}.confirm_results[${i}]`),
      tool_call: toolCallBlock(ids, {
        id: req(call, 'id', isStr, w),
        name: req(call, 'name', isStr, w),
        input: req(call, 'input', isStr, w),
        state: optionalEnum(call, 'state', CALL_STATES, w),
        suggested_rules: isArr(call.suggested_rules) ? (call.suggested_rules as never) : undefined,
        created_at: isStr(call.created_at) ? call.created_at : undefined,
        finished_at: isStr(call.finished_at) ? call.finished_at : null,
      }),
      rules: isArr(r.rules) ? r.rules : null,
    };
  });
  return { ...eventBase(o, ids), type: 'USER_CONFIRM_RESULT', reply_id: replyId, confirm_results: results };
}

function externalEvent(o: Obj, ids: IdSource): WireEvent {
  const where = 'input';
  const replyId = req(o, 'reply_id', isStr, where);
  const results = req(o, 'execution_results', isArr, where).map((r, i) => {
    const w = `${where}.execution_results[${i}]`;
    if (!isObj(r)) throw new InputError(`${w}: expected a ToolResultBlock`);
    const output = r.output;
    let normalised: string | (TextBlock | DataBlock)[];
    if (isStr(output)) normalised = output;
    else if (isArr(output)) {
      normalised = output.map((b, j) => {
        if (isObj(b) && b.type === 'text' && isStr(b.text)) return textBlock(ids, b.text, { id: isStr(b.id) ? b.id : undefined });
        throw new InputError(`${w}.output[${j}]: the demo accepts text blocks only`);
      });
    } else throw new InputError(`${w}.output: expected a string or a list of blocks`);
    return toolResultBlock(ids, {
      id: req(r, 'id', isStr, w),
      name: req(r, 'name', isStr, w),
      output: normalised,
      state: optionalEnum(r, 'state', RESULT_STATES, w),
      metadata: isObj(r.metadata) ? r.metadata : undefined,
      finished_at: isStr(r.finished_at) ? r.finished_at : null,
    });
  });
  return { ...eventBase(o, ids), type: 'EXTERNAL_EXECUTION_RESULT', reply_id: replyId, execution_results: results };
}
