// Whether a request asked for an agent stream, whatever came back: by its Accept header (an SSE or NDJSON type), or —
// pi-agent-core's streamProxy sends no such header — by its body ({model: {api…}, context}). A failed answer to such
// a request is what the developer needs to see: the page tap records it live, the HAR import keeps the entry. One
// rule for both. Dependency-free (the tap bundles it into the page's MAIN world).

const STREAM_ACCEPT = /text\/event-stream|application\/(?:x-ndjson|jsonl|stream\+json)/i;

/** An Accept header value that asks for a stream. */
export function acceptsStreamType(accept: string | undefined): boolean {
  return accept !== undefined && STREAM_ACCEPT.test(accept);
}

/**
 * A request body as pi-agent-core's streamProxy sends it. `parse`: the tap passes the JSON.parse it took at install
 * (not the page's, which the page may have replaced).
 */
export function isPiProxyRequestText(text: string | undefined, parse: (text: string) => unknown = JSON.parse): boolean {
  if (text === undefined || !text.includes('"context"')) return false;
  try {
    const v = parse(text) as { model?: { api?: unknown }; context?: unknown } | null;
    return typeof v?.model?.api === 'string' && typeof v.context === 'object' && v.context !== null && !Array.isArray(v.context);
  } catch {
    return false;
  }
}
