// A browser's HAR (Chrome's or Firefox's "Save all as HAR", Playwright's recordHar) holds the credentials the tap
// masks as it captures: the Authorization and Cookie headers, a Set-Cookie answer, a URL's userinfo, pi's
// `options.apiKey` in a request body, an auth message's token sent on a socket. Imported as they were, the viewer
// showed them and an export (without Redact) wrote them out — into a bug report whose writer expected them masked.
// The import masks them as the tap does (credential-mask.ts), and says what it masked, with no secret in the saying.
// Our own HAR's records (`_replyscope`) are not read through here: they were masked when captured, and stay exact.
import { maskHeaders, maskSecretsInJson, maskSecretsInJsonHead, maskUrlUserinfo } from './credential-mask.ts';
import type { BodyRecord } from './model.ts';

/** Names (header names, JSON keys) a note lists, at most, and the most characters of each. */
const MAX_NAMES = 5;
const MAX_NAME_CHARS = 40;

/** Masks what an import reads from a browser's HAR, and counts what it masked for the import's note. */
export class ImportMasking {
  private readonly headerNames = new Set<string>();
  private readonly headerEntries = new Set<number>();
  /** The URLs whose userinfo was masked, as masked (nothing of the userinfo is kept). */
  private readonly userinfoUrls = new Set<string>();
  private readonly bodyKeys = new Set<string>();
  private bodies = 0;
  private readonly sentKeys = new Set<string>();
  private sent = 0;

  /** An entry's request or response headers: a credential's value is MASK, its name kept. */
  headers(entry: number, pairs: [string, string][]): [string, string][] {
    const out = maskHeaders(pairs);
    out.forEach(([name, value], k) => {
      if (value === pairs[k][1]) return;
      this.headerNames.add(name.toLowerCase());
      this.headerEntries.add(entry);
    });
    return out;
  }

  /** A URL (an entry's, a page's) without the credentials of its userinfo. */
  url(url: string): string {
    const out = maskUrlUserinfo(url);
    if (out !== url) this.userinfoUrls.add(out);
    return out;
  }

  /**
   * A request body with its credential keys' values masked: the whole text, or the head of one the HAR holds cut
   * (`truncated`: its text shorter than the entry's bodySize, and no whole JSON; or, its bodySize -1 or missing, a
   * text that starts as JSON and does not parse — requestBodyOf in har-import-browser.ts), read as the start of a
   * JSON text as the tap reads a head its cap cut. Its size stays the size the page sent, as the tap records it.
   */
  requestBody(body: BodyRecord): BodyRecord {
    if (body.text === undefined) return body;
    const keys = new Set<string>();
    const text = body.truncated ? maskSecretsInJsonHead(body.text, JSON, keys) : maskSecretsInJson(body.text, JSON, keys);
    if (text === body.text) return body;
    this.bodies++;
    for (const k of keys) this.bodyKeys.add(k);
    return { ...body, text };
  }

  /** The text of a WebSocket message the page sent, masked as a request body is (the tap masks it so). */
  sentMessage(data: string): string {
    const keys = new Set<string>();
    const out = maskSecretsInJson(data, JSON, keys);
    if (out === data) return data;
    this.sent++;
    for (const k of keys) this.sentKeys.add(k);
    return out;
  }

  /** What was masked, for the import's notes ("credentials masked on import: …"); undefined when nothing was. */
  note(): string | undefined {
    const parts: string[] = [];
    const entries = this.headerEntries.size;
    if (entries > 0) parts.push(`${names(this.headerNames)} header${this.headerNames.size === 1 ? '' : 's'} in ${count(entries, 'entry', 'entries')}`);
    if (this.userinfoUrls.size > 0) parts.push(`the userinfo of ${count(this.userinfoUrls.size, 'URL', 'URLs')}`);
    if (this.bodies > 0) parts.push(`${names(this.bodyKeys)} in ${count(this.bodies, 'request body', 'request bodies')}`);
    if (this.sent > 0) parts.push(`${names(this.sentKeys)} in ${count(this.sent, 'WebSocket message', 'WebSocket messages')} sent`);
    if (parts.length === 0) return undefined;
    return `Credentials masked on import, as the extension masks them when it captures: ${parts.join('; ')}.`;
  }
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** "authorization, cookie and x-api-key" — at most MAX_NAMES, each clipped (a name is no secret, but may be long). */
function names(all: Set<string>): string {
  if (all.size === 0) return 'credentials';
  const list = [...all].slice(0, MAX_NAMES).map((n) => (n.length > MAX_NAME_CHARS ? `${n.slice(0, MAX_NAME_CHARS)}…` : n));
  if (all.size > MAX_NAMES) return `${list.join(', ')} and ${all.size - MAX_NAMES} more`;
  return list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
}
