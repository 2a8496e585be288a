// Redaction of JSON that arrives as text in pieces: a tool call's arguments, streamed as deltas of a JSON document
// (AgentScope's TOOL_CALL_DELTA, pi's toolcall_delta). Masking each piece as plain text turned digits and literals
// into "x" ("1.10" → "x.xx", true → xxxx): the arguments were no longer JSON, and a redacted capture reported
// "tool input is not valid JSON" where the original did not. This masker reads the pieces as one document, carrying
// its state from piece to piece, and masks what redactJson masks in a parsed value: the letters and digits of string
// values. Keys, numbers, literals and punctuation stay, and so does the document's validity (or its invalidity).

export class JsonTextMasker {
  private inString = false;
  /** The string being read is an object key (kept, as redactJson keeps keys). */
  private isKey = false;
  /** After a backslash inside a string: the next character is the escape's letter. */
  private escape = false;
  /** The hex digits of a \u escape read so far (held until all four are there: they may span pieces), or undefined. */
  private hex: string | undefined;
  /** Containers open: "o" object, "a" array. */
  private readonly stack: ('o' | 'a')[] = [];
  /** In an object, where the next string is a key (after "{" or ","). */
  private expectKey = false;

  /** The next piece of the document, masked. */
  mask(piece: string): string {
    let out = '';
    for (const ch of piece) out += this.step(ch);
    return out;
  }

  private step(ch: string): string {
    if (this.inString) return this.stringChar(ch);
    switch (ch) {
      case '"':
        this.inString = true;
        this.isKey = this.expectKey;
        this.expectKey = false;
        return ch;
      case '{':
        this.stack.push('o');
        this.expectKey = true;
        return ch;
      case '[':
        this.stack.push('a');
        return ch;
      case '}':
      case ']':
        this.stack.pop();
        this.expectKey = false;
        return ch;
      case ',':
        this.expectKey = this.stack[this.stack.length - 1] === 'o';
        return ch;
      default:
        return ch; // numbers, literals, ":", whitespace: kept (redactJson keeps all but strings)
    }
  }

  private stringChar(ch: string): string {
    if (this.hex !== undefined) {
      if (!/^[0-9a-fA-F]$/.test(ch)) { // a malformed escape: kept as it came, and this character read as usual
        const held = this.hex;
        this.hex = undefined;
        return held + this.stringChar(ch);
      }
      this.hex += ch;
      if (this.hex.length < 4) return '';
      const hex = this.hex;
      this.hex = undefined;
      // A letter or digit written as \uXXXX (Python's json.dumps escapes all non-ASCII) is masked like one written
      // plainly: \u0078, "x". Anything else stays.
      return !this.isKey && /[\p{L}\p{N}]/u.test(String.fromCharCode(parseInt(hex, 16))) ? '0078' : hex;
    }
    if (this.escape) {
      this.escape = false;
      if (ch === 'u') this.hex = '';
      return ch;
    }
    if (ch === '\\') {
      this.escape = true;
      return ch;
    }
    if (ch === '"') {
      this.inString = false;
      return ch;
    }
    return this.isKey ? ch : ch.replace(/[\p{L}\p{N}]/u, 'x');
  }
}

/** A whole JSON text (e.g. a tool call's input so far) masked as the pieces of one would be. */
export function maskJsonText(text: string): string {
  return new JsonTextMasker().mask(text);
}

/**
 * The streamed-arguments maskers of one connection, one per tool call being streamed: AgentScope names it by
 * `tool_call_id`, pi by its `contentIndex` (a new `toolcall_start` there begins a new document).
 */
export class ToolArgsMaskers {
  private readonly maskers = new Map<string, JsonTextMasker>();

  /** The call `key` continues a document that began with `text` (an eviction digest's input): read, not output. */
  seed(key: string, text: string): void {
    const m = new JsonTextMasker();
    m.mask(text);
    this.maskers.set(key, m);
  }

  /**
   * When `event` streams a piece of tool-call arguments: that piece masked, and where it sits (top level, or in a
   * pi agent event's `assistantMessageEvent`). Undefined for any other event.
   */
  piece(event: unknown): { inner: boolean; masked: string } | undefined {
    if (event === null || typeof event !== 'object') return undefined;
    const e = event as Record<string, unknown>;
    const inner = e.type === 'message_update' && e.assistantMessageEvent !== null && typeof e.assistantMessageEvent === 'object';
    const ev = inner ? (e.assistantMessageEvent as Record<string, unknown>) : e;
    const key = ev.type === 'TOOL_CALL_START' || ev.type === 'TOOL_CALL_DELTA' ? `as:${String(ev.reply_id)}:${String(ev.tool_call_id)}`
      : ev.type === 'toolcall_start' || ev.type === 'toolcall_delta' ? `pi:${String(ev.contentIndex)}` : undefined;
    if (key === undefined) return undefined;
    if (ev.type === 'TOOL_CALL_START' || ev.type === 'toolcall_start') {
      this.maskers.delete(key);
      return undefined;
    }
    if (typeof ev.delta !== 'string') return undefined;
    let m = this.maskers.get(key);
    if (!m) this.maskers.set(key, (m = new JsonTextMasker()));
    return { inner, masked: m.mask(ev.delta) };
  }
}
