// A string of a derived message (an eviction digest's, see analysis/eviction-digest.ts) longer than the digest keeps:
// its newest part behind a marker that says how many older characters were left out. Here, below the protocol
// layers, so that checks which read such a string (a tool call's input must be JSON) can tell it was cut.

/** The longest string a derived message keeps (its newest part), so a derived state stays far below the cap. */
export const MAX_DERIVED_CHARS = 1 << 20;

/**
 * How long a string may grow while the digest is still being fed (it is cut back to MAX_DERIVED_CHARS when it passes
 * this, and exactly when written out): cutting after every record copied the whole kept text per record — ~9 ms
 * for each delta of an endless reply, on the page's own thread, where the relay digests. Cutting late gives the same
 * text: the newest MAX_DERIVED_CHARS of a text are those of its newest MAX_DERIVED_CHARS plus what came after.
 */
export const MAX_GROWING_CHARS = MAX_DERIVED_CHARS + MAX_DERIVED_CHARS / 4;

/** The marker a capped string starts with; its count is of the original text's characters (UTF-16 units) left out. */
const CAP_MARKER = /^\[… (\d+) older characters evicted …\]/;

/**
 * The newest MAX_DERIVED_CHARS of `v` behind a marker saying how many older characters were left out, once `v` is
 * longer than `limit` (MAX_GROWING_CHARS while a digest grows, see there). The digest caps its state as it goes, so `v` is often an earlier cap's result plus new text: that marker's count is carried
 * on (the new marker counts the original text's characters, not the old marker's).
 */
export function capText(v: string, limit = MAX_DERIVED_CHARS): string {
  // Within the bound, marker or not: returned as it is, without reading it (the marker's regex copied a long text
  // being appended to — per record it was called for, per message on a socket).
  if (v.length <= limit) return v;
  const earlier = CAP_MARKER.exec(v);
  const body = earlier ? v.slice(earlier[0].length) : v;
  if (body.length <= MAX_DERIVED_CHARS) return v;
  let cut = body.length - MAX_DERIVED_CHARS;
  // Not between the halves of a surrogate pair: the kept text began with a lone low surrogate (shown as "�").
  const c = body.charCodeAt(cut);
  if (c >= 0xdc00 && c <= 0xdfff) cut++;
  const left = (earlier ? Number(earlier[1]) : 0) + cut;
  return `[… ${left} older characters evicted …]` + body.slice(cut);
}

/** Characters a capped string left out (the count in its marker), or undefined when it was not capped. */
export function cappedBy(v: string): number | undefined {
  const m = CAP_MARKER.exec(v);
  return m ? Number(m[1]) : undefined;
}

