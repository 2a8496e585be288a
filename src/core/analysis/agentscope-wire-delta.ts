// A compiled reading of the wire shape that makes up almost all of an AgentScope stream: a text / thinking /
// tool-call / tool-result text delta exactly as pydantic's `model_dump_json` writes it (or `json.dumps` with its
// default ", " and ": " separators):
//   {"id":"…","created_at":"…","metadata":{},"type":"TEXT_BLOCK_DELTA","reply_id":"…","block_id":"…","delta":"…"}
//
// Why: `JSON.parse` was a third of the analysis' time, and for these events it builds an object whose fields the
// delta lane then reads back (see agentscope-fast-validate.ts). One native regular expression reads the same fields
// 2.5–4× faster (measured on the benchmark capture's texts), and the event is parsed only if something needs the
// object (`RawEvent.raw` parses on first read). The reading is exact or nothing: the pattern admits only what
// `JSON.parse` would parse to these very fields — no escapes but in `delta` (which then goes through `JSON.parse`
// alone), no control characters, the key set and order above, an empty `metadata` — and every field is a string,
// which is all `fastValidateAgentScope` asks of this shape. Anything else (other key orders, other whitespace,
// escapes elsewhere) is simply not matched, and the event is parsed as before. test/unit/analysis/agentscope-wire-delta.test.ts
// holds it equal to `JSON.parse` + `fastValidateAgentScope` on generated and mutated texts.

/** The fields of a delta read from its wire text: what `lastFast` holds after the fast validator read the event. */
export interface WireDelta {
  /** The event type, as the constant string (not a copy per event). */
  type: string;
  replyId: string;
  createdAt: string;
  /** `block_id` (text, thinking) or `tool_call_id` (tool call, tool result text). */
  target: string;
  delta: string;
}

const CHARS = '[^"\\\\\\x00-\\x1f]*'; // a JSON string's content without escapes or control characters
const STR = `(${CHARS})`;
const SEP = ', ?';
const COLON = ': ?';
const field = (key: string, value: string) => `"${key}"${COLON}${value}`;
// Captures only what the lane reads. The type and the target key are told by one-character groups (a match of the
// whole name would be a new string per event): group 2 "T" text, 3 "H" thinking, 4 "C" tool call, 5 "R" tool result;
// group 7 "b" for block_id.
const PATTERN = new RegExp(
  '^\\{' +
    [
      field('id', `"${CHARS}"`),
      field('created_at', `"${STR}"`),
      field('metadata', '\\{\\}'),
      field('type', '"(?:(T)EXT_BLOCK|T(H)INKING_BLOCK|TOOL_(C)ALL|TOOL_(R)ESULT_TEXT)_DELTA"'),
      field('reply_id', `"${STR}"`),
      `"(?:(b)lock_id|tool_call_id)"${COLON}"${STR}"`,
      // The delta may hold escapes: any backslash pair here, checked by JSON.parse below.
      field('delta', '"((?:[^"\\\\\\x00-\\x1f]|\\\\[^\\x00-\\x1f])*)"'),
    ].join(SEP) +
    '\\}$',
);

/**
 * Short deltas seen recently, each kept as one string. JSON.parse hands out short strings internalized (one object
 * per distinct text); a regular expression's captures are fresh copies, which the history's delta column would keep,
 * a million of them, every one promoted out of the young generation. Tokens repeat, so a bounded cache gives the same
 * sharing. Cleared when full (a new vocabulary starts over).
 */
const shared = new Map<string, string>();
const SHARED_MAX_LENGTH = 24;
const SHARED_MAX_SIZE = 16384;

function share(s: string): string {
  if (s.length > SHARED_MAX_LENGTH) return s;
  const known = shared.get(s);
  if (known !== undefined) return known;
  if (shared.size >= SHARED_MAX_SIZE) shared.clear();
  shared.set(s, s);
  return s;
}

/** Texts longer than this are left to JSON.parse (see readWireDelta). */
export const MAX_TEXT_LENGTH = 1024 * 1024;

/**
 * The delta's fields when `text` is that exact shape (then it is valid JSON, and `JSON.parse` of it gives an event
 * `fastValidateAgentScope` accepts, with these fields); undefined otherwise.
 */
export function readWireDelta(text: string): WireDelta | undefined {
  if (text.charCodeAt(1) !== 34 /* " */ || text.charCodeAt(2) !== 105 /* i */) return undefined; // not `{"id"…`: no regex
  // The delta's group is repeated once per character, and each repetition takes room on the expression's backtrack
  // stack: a delta of ~8 MB overflowed it (a RangeError that failed the whole capture's analysis). Long texts are
  // rare and JSON.parse reads them at its usual speed.
  if (text.length > MAX_TEXT_LENGTH) return undefined;
  const m = PATTERN.exec(text);
  if (m === null) return undefined;
  const type = m[2] !== undefined ? 'TEXT_BLOCK_DELTA' : m[3] !== undefined ? 'THINKING_BLOCK_DELTA' : m[4] !== undefined ? 'TOOL_CALL_DELTA' : 'TOOL_RESULT_TEXT_DELTA';
  // Text and thinking deltas name a block_id, the tool ones a tool_call_id (a mismatch is the fast validator's no).
  if ((m[7] !== undefined) !== (m[2] !== undefined || m[3] !== undefined)) return undefined;
  let delta = m[9];
  if (delta.indexOf('\\') !== -1) {
    try {
      delta = JSON.parse(`"${delta}"`) as string;
    } catch {
      return undefined; // an invalid escape: the whole text is invalid JSON, and JSON.parse will say so
    }
  }
  return { type, replyId: m[6], createdAt: m[1], target: m[8], delta: share(delta) };
}
