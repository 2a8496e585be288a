// The Data column of an AgentScope event row: one line of what the event carries. Most events carry one telling field
// (a delta, a tool name, a finished reason: `previewOf` takes the first present). The events below carry what they
// say in a field that is no string or in a list — a hint, the tool calls a REQUIRE_* parks, the answers of the user
// or the client — and their rows were blank, so a reader saw neither which call waited nor what came back without
// opening each event.
import { shownJsonHead } from '../diagnostics/shown.ts';
import { clip, PREVIEW_MAX, previewOf } from './stream-processor.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The first field present: `url` after `data` (a TOOL_RESULT_DATA_DELTA has one of them, the other null). */
const PREVIEW_KEYS = ['delta', 'data', 'url', 'tool_call_name', 'model_name', 'name', 'finished_reason', 'state', 'error'];

/** A list of text/data blocks (a hint's, a tool result's output) as a line: the texts, a data block as its type. */
function mediaLine(blocks: unknown[]): string {
  return blocks
    .map((b) => {
      if (!isObj(b)) return '?';
      if (b.type === 'text' || typeof b.text === 'string') return str(b.text) ?? '';
      const source = isObj(b.source) ? b.source : {};
      return `[${str(b.name) ?? str(source.media_type) ?? 'data'}]`;
    })
    .join(' ');
}

/** "id name" of a tool call (a REQUIRE_* list entry, a confirmation's call). */
function callLine(call: unknown): string {
  if (!isObj(call)) return '?';
  return [str(call.id), str(call.name)].filter(Boolean).join(' ') || '?';
}

function list(v: unknown, line: (x: unknown) => string): string | undefined {
  return Array.isArray(v) ? clip(v.map(line).join(', ')) : undefined;
}

/** The Data column's text for one (parsed, normalised) AgentScope event. */
export function agentScopePreview(raw: unknown): string {
  if (!isObj(raw)) return previewOf(raw, PREVIEW_KEYS);
  switch (raw.type) {
    case 'HINT_BLOCK': {
      const hint = raw.hint;
      if (typeof hint === 'string') return clip(hint);
      if (Array.isArray(hint)) return clip(mediaLine(hint));
      break;
    }
    case 'DATA_BLOCK_START':
      if (typeof raw.media_type === 'string') return clip(raw.media_type);
      break;
    case 'REQUIRE_USER_CONFIRM':
    case 'REQUIRE_EXTERNAL_EXECUTION':
      return list(raw.tool_calls, callLine) ?? '';
    case 'USER_CONFIRM_RESULT':
      return list(raw.confirm_results, (r) => {
        if (!isObj(r)) return '?';
        // Its head only (the line is clipped to PREVIEW_MAX): JSON.stringify wrote all of it, and overflowed the stack on
        // a value nested 100,000 deep (an invalid event's preview is made from the parsed value too).
        const verdict = r.confirmed === true ? 'confirmed' : r.confirmed === false ? 'denied' : `confirmed: ${shownJsonHead(r.confirmed, PREVIEW_MAX + 1) ?? 'undefined'}`;
        return `${callLine(r.tool_call)} ${verdict}`;
      }) ?? '';
    case 'EXTERNAL_EXECUTION_RESULT':
      return list(raw.execution_results, (r) => {
        if (!isObj(r)) return '?';
        const output = typeof r.output === 'string' ? r.output : Array.isArray(r.output) ? mediaLine(r.output) : '';
        return [callLine(r), str(r.state), output].filter(Boolean).join(' ');
      }) ?? '';
  }
  return previewOf(raw, PREVIEW_KEYS);
}
