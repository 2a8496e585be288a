// The redaction of one JSON value (an event, a request body, a reply's message, the pi client state): its string
// values masked, except those of structural keys (types, roles, ids: the analysis needs them) and the `{"$js": …}`
// markers of an encoded pi state; strings that hold JSON text masked as JSON (redact-json-text.ts). Apart from
// redact.ts, which walks the capture's records and cuts stream text into lines, because every part of a record is
// masked by these same rules.
import { maskJsonText, maskText, type ToolArgsMaskers } from './redact-json-text.ts';
import { jsonText } from '../json-text.ts';

const STRUCTURAL_KEYS = new Set(['type', 'id', 'role', 'name', 'state', 'status', 'api', 'provider', 'model',
  'stopReason', 'stop_reason', 'reason', 'finished_reason', 'finish_reason', 'media_type', 'mimeType', 'created_at',
  'finished_at', 'timestamp', 'event', 'object']);

export function isStructuralKey(key: string | undefined): boolean {
  return key !== undefined && (STRUCTURAL_KEYS.has(key) || key.endsWith('_id') || /[a-z]Id$/.test(key));
}

/**
 * String fields that hold JSON text: an AgentScope tool call's `input`, pi's `partialJson` — masked as JSON (string
 * values only), so they stay the JSON they were (see redact-json-text.ts).
 */
function isJsonText(holder: Record<string, unknown>, key: string): boolean {
  return key === 'partialJson' || (key === 'input' && holder.type === 'tool_call');
}

export function redactJson(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return isStructuralKey(key) ? value : maskText(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, key));
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) out[k] = typeof v === 'string' && isJsonText(o, k) ? maskJsonText(v, isStructuralKey) : redactJson(v, k);
    return out;
  }
  return value;
}

/**
 * A reply's message as an eviction digest keeps it, redacted as redactJson redacts it. One holding a value nested too
 * deep for redactJson's recursion (a legacy AgentScope message keeps a stream's free-form values at any depth) is
 * written out (jsonText, which walks with a stack), masked as that text by the same rules (maskJsonText, as
 * redactValueText masks such a line) and read back: JSON.parse does not recurse. A tool call's input in it is then
 * masked as a string (its keys too), not as the JSON it holds.
 */
export function redactMessage(message: Record<string, unknown>): Record<string, unknown> {
  try {
    return redactJson(message) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof TypeError) throw err; // (a stack overflow is a RangeError in V8, an InternalError in Firefox)
    return JSON.parse(maskJsonText(jsonText(message) as string, isStructuralKey)) as Record<string, unknown>;
  }
}

/**
 * A JSON text with its string values masked (re-serialised compactly), or masked characters when it is not JSON.
 * `args`: the connection's streamed tool-call arguments, whose pieces are masked as one JSON document.
 */
export function redactValueText(s: string, args?: ToolArgsMaskers): string {
  if (s.trim() === '') return s;
  let value: unknown;
  try {
    value = JSON.parse(s);
  } catch {
    // Not (yet) JSON — an unfinished line, text — masked as the start of a JSON text: its strings' letters and digits,
    // and any letter outside them that is no JSON literal (keys of a partial event stay, as in a parsed one).
    return maskJsonText(s, isStructuralKey);
  }
  const piece = args?.piece(value);
  try {
    const out = redactJson(value) as Record<string, unknown>;
    if (piece) (piece.inner ? (out.assistantMessageEvent as Record<string, unknown>) : out).delta = piece.masked;
    return JSON.stringify(out);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    // Nested too deep for a recursive walk (redactJson's, and JSON.stringify's): a stream can send a value nested
    // 100,000 deep, which JSON.parse reads. Masked as its text instead, by the same rules (structural keys' values
    // kept), written as it came; a tool-argument piece in it is masked as a string, not as JSON.
    return maskJsonText(s, isStructuralKey);
  }
}

/**
 * The encoded pi client state (pi-state-json.ts's encodePiState) with its strings masked as redactJson masks
 * events; its `{"$js": …}` markers (undefined, NaN… in place) stay as they are, so it still decodes. (It used to be
 * dropped: the analysis then restarted the client from nothing and reported the kept deltas as a failed client.)
 */
export function redactPiState(value: unknown, key?: string): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$js') return value;
    const out: Record<string, unknown> = {};
    // A tool call's partialJson is JSON text (masked as such: its numbers, literals and keys stay, see isJsonText).
    for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'string' && k === 'partialJson' ? maskJsonText(v, isStructuralKey) : redactPiState(v, k);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => redactPiState(v, key));
  return redactJson(value, key);
}
