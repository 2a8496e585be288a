// The tool-result events of append_event (TOOL_RESULT_TEXT_DELTA / DATA_DELTA / END), split from append-event.ts.
import type { DataBlock, MediaBlock, Msg, ToolCallBlock, ToolResultBlock } from './blocks.ts';
import type { AgentEventOf } from './schema.ts';
import { pyAnyUrl } from './py-compat.ts';
import { findBlock, notFound, patch, PartialError, textBlock, withBlock, type Env, type Step } from './msg-edit.ts';

export type ToolResultEvent = AgentEventOf<'TOOL_RESULT_TEXT_DELTA' | 'TOOL_RESULT_DATA_DELTA' | 'TOOL_RESULT_END'>;

export function toolResultEvent(msg: Msg, event: ToolResultEvent, env: Env): Step {
  const i = findBlock(msg, 'tool_result', event.tool_call_id);
  if (i < 0) return notFound('tool_result', event.tool_call_id);
  const result = msg.content[i] as ToolResultBlock;
  if (event.type === 'TOOL_RESULT_END') {
    let next = withBlock(msg, i, patch(result, { state: event.state, metadata: event.metadata, finished_at: env.eventTime }));
    // The paired call's lifecycle ends with its result, whatever state it was in.
    const c = findBlock(next, 'tool_call', event.tool_call_id);
    if (c >= 0) next = withBlock(next, c, patch(next.content[c] as ToolCallBlock, { state: 'finished' }));
    return { msg: next };
  }
  // A string output (from EXTERNAL_EXECUTION_RESULT) becomes [TextBlock(output)] first — even an empty string.
  const output: MediaBlock[] = typeof result.output === 'string' ? [textBlock(result.output, env)] : result.output;
  const converted = output !== result.output;
  if (event.type === 'TOOL_RESULT_TEXT_DELTA') {
    const last = output[output.length - 1];
    if (last && last.type === 'text') {
      if (event.delta === '' && !converted) return { msg };
      return { msg: withBlock(msg, i, { ...result, output: [...output.slice(0, -1), { ...last, text: last.text + event.delta }] }) };
    }
    return { msg: withBlock(msg, i, { ...result, output: [...output, textBlock(event.delta, env)] }) };
  }
  let source: DataBlock['source'];
  if (event.data !== null) {
    source = { type: 'base64', data: event.data, media_type: event.media_type }; // stored verbatim, never decoded
  } else {
    const url = pyAnyUrl(event.url ?? '');
    if (!url.ok) {
      const partial = converted ? withBlock(msg, i, { ...result, output }) : msg;
      throw new PartialError({ kind: 'invalid-url', message: `ValidationError: url: ${url.message} [url_parsing]` }, partial);
    }
    source = { type: 'url', url: url.url, media_type: event.media_type };
  }
  const data: DataBlock = {
    type: 'data',
    id: event.block_id ?? env.clock.newId(),
    source,
    name: null,
    created_at: env.clock.now(),
    finished_at: null,
  };
  return { msg: withBlock(msg, i, { ...result, output: [...output, data] }) };
}
