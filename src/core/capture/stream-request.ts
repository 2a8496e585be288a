// Whether a request asked for an agent stream, whatever came back: by its Accept header (an SSE or NDJSON type), or —
// pi-agent-core's streamProxy sends no such header — by its body ({model: {api…}, context}; one cut at a cap, by its
// head). A failed answer to such a request is what the developer needs to see: the page tap records it live, the HAR
// import keeps the entry; analysis reads the same rule for the client that reads the stream. One rule for all.
// Dependency-free (the tap bundles it into the page's MAIN world).

const STREAM_ACCEPT = /text\/event-stream|application\/(?:x-ndjson|jsonl|stream\+json)/i;

/** An Accept header value that asks for a stream. */
export function acceptsStreamType(accept: string | undefined): boolean {
  return accept !== undefined && STREAM_ACCEPT.test(accept);
}

type Parse = (text: string) => unknown;

/** What these rules read of a request body: its text, and whether that is only the body's head (BodyRecord). */
export interface RequestBodyText {
  readonly text?: string;
  /** Only the head of the body was kept (the tap's 1 MiB cap, a HAR whose text is shorter than its bodySize). */
  readonly truncated?: boolean;
}

/**
 * The `model` of a request body as pi-agent-core's streamProxy sends it (`JSON.stringify({model, context, options})`,
 * `model` an object with a string `api`, `context` an object); undefined for any other body. A whole body is parsed
 * whole. A cut one — a long conversation's context passes the tap's 1 MiB cap — cannot be: its head is read instead
 * (piProxyHead). `parse`: the tap passes the JSON.parse it took at install (not the page's, which the page may have
 * replaced).
 */
export function piProxyRequestModel(body: RequestBodyText | undefined, parse: Parse = JSON.parse): Record<string, unknown> | undefined {
  const text = body?.text;
  if (text === undefined) return undefined;
  if (body?.truncated) return piProxyHead(text, parse);
  if (!text.includes('"context"')) return undefined; // most bodies: no parse
  try {
    const v = parse(text) as { model?: unknown; context?: unknown } | null;
    return isObject(v?.model) && typeof v.model.api === 'string' && isObject(v.context) ? v.model : undefined;
  } catch {
    return undefined;
  }
}

/** A request body as pi-agent-core's streamProxy sends it (piProxyRequestModel). */
export function isPiProxyRequest(body: RequestBodyText | undefined, parse: Parse = JSON.parse): boolean {
  return piProxyRequestModel(body, parse) !== undefined;
}

/**
 * The request body's JSON as a pi client's initial message reads it (its `model`): a whole body parsed (undefined
 * when it is no JSON); of a cut one, `{model}` when its head shows streamProxy's request.
 */
export function piRequestJson(body: RequestBodyText | undefined): unknown {
  if (body?.text === undefined) return undefined;
  if (body.truncated) {
    const model = piProxyRequestModel(body);
    return model === undefined ? undefined : { model };
  }
  try {
    return JSON.parse(body.text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * How far into a cut body its head is read: `model` (and any member before `context`) must be whole within it. A
 * model description is well under 1 KiB; the bound keeps a body of another shape from being scanned to its cut.
 */
export const PI_PROXY_HEAD_MAX = 64 * 1024;

/**
 * The `model` of a cut body whose head shows streamProxy's request: `{`, then whole members, one of them `model` — an
 * object with a string `api` — then `"context": {`. Nothing past the context's `{` is read (the context is the long
 * part, and the cap cut it), so this is O(head), not O(body), and the JSON.parse is only of the members before it.
 *
 * Key order. streamProxy writes `{model, context, options}` in that order (JSON.stringify keeps an object literal's
 * order), so a body it cut has `model` whole before the cut. Any order is valid JSON, and a whole body is read in any
 * order (parsed whole). Of a cut body:
 * - members before `model` or between `model` and `context` (`options` first, another client's own fields) are read
 *   and parsed like `model`: each must be whole JSON, within PI_PROXY_HEAD_MAX;
 * - `context` before `model` is not recognised: `model` then lies past the whole context, which is what the cap cut
 *   (sorted keys — `context`, `model`, `options` — give that order); reading past it would be O(body) to confirm a
 *   body streamProxy never writes;
 * - a key written twice (JSON.parse keeps the last): the last one before `context` counts; one after the cut cannot
 *   be seen (JSON.stringify never writes a key twice).
 * Keys are compared as written (`"context"`, as JSON.stringify writes it; a key spelt with escapes is another key here,
 * as for the whole-body check's quick test above).
 */
function piProxyHead(text: string, parse: Parse): Record<string, unknown> | undefined {
  const s = text.length > PI_PROXY_HEAD_MAX ? text.slice(0, PI_PROXY_HEAD_MAX) : text;
  let i = skipWs(s, 0);
  if (s.charCodeAt(i) !== 0x7b /* { */) return undefined;
  let model: Record<string, unknown> | undefined;
  for (i = skipWs(s, i + 1); s.charCodeAt(i) === 0x22 /* " */; ) {
    const keyEnd = stringEnd(s, i);
    if (keyEnd < 0) return undefined; // cut (or past the head) inside a key
    const key = s.slice(i, keyEnd);
    i = skipWs(s, keyEnd);
    if (s.charCodeAt(i) !== 0x3a /* : */) return undefined;
    i = skipWs(s, i + 1);
    if (key === '"context"') return model !== undefined && s.charCodeAt(i) === 0x7b ? model : undefined;
    const end = valueEnd(s, i);
    if (end < 0) return undefined; // the head ends before `context`
    let value: unknown;
    try {
      value = parse(s.slice(i, end));
    } catch {
      return undefined; // no JSON: then the whole body is none either
    }
    if (key === '"model"') model = isObject(value) && typeof value.api === 'string' ? value : undefined;
    i = skipWs(s, end);
    if (s.charCodeAt(i) !== 0x2c /* , */) return undefined; // `}` (the body ended without a context) or no JSON
    i = skipWs(s, i + 1);
  }
  return undefined;
}

/** Past JSON whitespace (space, tab, LF, CR) from `i`. */
function skipWs(s: string, i: number): number {
  while (i < s.length && isJsonSpace(s.charCodeAt(i))) i++;
  return i;
}

/** JSON whitespace: space, tab, LF, CR (the tap's masking of a body's head reads it too). */
export const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** Just past the JSON string opening at `i` (its closing quote), or -1 when the text ends first. */
export function stringEnd(s: string, i: number): number {
  for (let from = i + 1; ; ) {
    const q = s.indexOf('"', from);
    if (q < 0) return -1;
    let b = q - 1;
    while (s.charCodeAt(b) === 0x5c /* \ */) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1; // an even run of backslashes: the quote is not escaped
    from = q + 1;
  }
}

/**
 * Just past the JSON value starting at `i` — by its strings and brackets only; what is inside is checked by parsing
 * it — or -1 when the text ends first (a number or literal running to the end may go on past the cut).
 */
function valueEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) return stringEnd(s, i);
  if (c === 0x7b || c === 0x5b /* [ */) {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const d = s.charCodeAt(j);
      if (d === 0x22) {
        j = stringEnd(s, j) - 1;
        if (j < 0) return -1;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return j + 1;
    }
    return -1;
  }
  let j = i;
  for (; j < s.length; j++) {
    const d = s.charCodeAt(j);
    if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) return j;
  }
  return -1;
}

/**
 * A URL query parameter that carries a client's last event ID: clients that cannot send a Last-Event-ID header (a
 * page's own `new EventSource(url + '?lastEventId=…')`, the event-source-polyfill package, which sends none to spare a
 * CORS preflight) pass it in the URL instead. Any spelling of "last event id" counts — `lastEventId` (that package's
 * default, and what servers that accept one read), `lastEventID` (Mercure), `Last-Event-ID` / `Last-Event-Id`
 * (Mercure's older name, what users set the package's `lastEventIdQueryParameterName` to), `last_event_id`,
 * `last-event-id` — and nothing vaguer (`since`, `cursor`, `after`, `offset` name other things too).
 */
export function isLastEventIdParam(name: string): boolean {
  return name.length >= 11 && name.length <= 13 && name.replace(/[-_]/g, '').toLowerCase() === 'lasteventid';
}

/** Whether a URL may carry a last-event-id query parameter (a quick test before parsing it). */
export const MAY_HAVE_LAST_EVENT_ID_PARAM = /last[-_]?event[-_]?id/i;
