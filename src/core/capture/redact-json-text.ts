// Redaction of JSON that arrives as text in pieces: a tool call's arguments, streamed as deltas of a JSON document
// (AgentScope's TOOL_CALL_DELTA, pi's toolcall_delta). Masking each piece as plain text turned digits and literals
// into "x" ("1.10" → "x.xx", true → xxxx): the arguments were no longer JSON, and a redacted capture reported
// "tool input is not valid JSON" where the original did not. This masker reads the pieces as one document, carrying
// its state from piece to piece, and masks what redactJson masks in a parsed value: the letters and digits of string
// values (and, like redactJson, not those of structural keys: ids, types). Keys, numbers, literals and punctuation
// stay, and so does the document's validity (or its invalidity); outside strings nothing else does.
import { cappedBy } from './capped-text.ts';

export class JsonTextMasker {
  private inString = false;
  /** The string being read is an object key (kept, as redactJson keeps keys). */
  private isKey = false;
  /** The string being read is kept whole: a key, or the value of a key `keepValueOf` names (an id, a type). */
  private keep = false;
  /** The text of the key being read. */
  private keyText = '';
  /** Per open container, the key its values are under (an array's elements: its own key's, as redactJson has it). */
  private readonly keys: (string | undefined)[] = [];

  /** After a backslash inside a string: the next character is the escape's letter. */
  private escape = false;
  /** The hex digits of a \u escape read so far (held until all four are there: they may span pieces), or undefined. */
  private hex: string | undefined;
  /** Containers open: "o" object, "a" array. */
  private readonly stack: ('o' | 'a')[] = [];
  /** In an object, where the next string is a key (after "{" or ","). */
  private expectKey = false;
  /** Letters outside strings held while they may still spell true, false or null (they may span pieces). */
  private word = '';
  /** How many of `word`'s letters were already written (by the text this masker continues, see `continueAfter`). */
  private wordOut = 0;
  /** The last character outside strings was part of a number (so an "e" is its exponent). */
  private inNumber = false;

  /** `keepValueOf`: keys whose string values stay unmasked (redact-values.ts's structural keys: the same as redactJson). */
  constructor(private readonly keepValueOf: (key: string) => boolean = () => false) {}

  /** The next piece of the document, masked. */
  mask(piece: string): string {
    let out = '';
    for (const ch of piece) out += this.step(ch);
    return out;
  }

  private step(ch: string): string {
    if (this.inString) return this.stringChar(ch);
    // Outside strings only JSON's own characters are kept: ASCII digits, a number's exponent, the literals true,
    // false and null, punctuation. Any other letter or digit is masked — text that is not JSON (arguments streamed
    // as prose, a document whose start is not known) shows nothing of itself.
    if (/[a-zA-Z]/.test(ch)) {
      if (this.word === '' && this.inNumber && (ch === 'e' || ch === 'E')) return ch;
      const word = this.word + ch;
      if (LITERALS.some((l) => l.startsWith(word))) {
        this.word = word;
        return '';
      }
      this.inNumber = false;
      return this.release(maskText(word));
    }
    const held = this.word;
    const before = held === '' ? '' : this.release(LITERALS.includes(held) ? held : maskText(held));
    this.inNumber = /[0-9.+-]/.test(ch) && (/[0-9]/.test(ch) || this.inNumber);
    if (/[\p{L}\p{N}]/u.test(ch) && !/[0-9]/.test(ch)) return before + 'x';
    return before + this.structural(ch);
  }

  private structural(ch: string): string {
    switch (ch) {
      case '"':
        this.inString = true;
        this.isKey = this.expectKey;
        this.expectKey = false;
        if (this.isKey) this.keyText = '';
        else {
          const key = this.keys[this.keys.length - 1];
          this.keep = key !== undefined && this.keepValueOf(key);
        }
        return ch;
      case '{':
        this.stack.push('o');
        this.keys.push(undefined);
        this.expectKey = true;
        return ch;
      case '[':
        this.stack.push('a');
        this.keys.push(this.keys[this.keys.length - 1]);
        return ch;
      case '}':
      case ']':
        this.stack.pop();
        this.keys.pop();
        this.expectKey = false;
        return ch;
      case ',':
        this.expectKey = this.stack[this.stack.length - 1] === 'o';
        return ch;
      default:
        return ch; // digits, ":", whitespace, punctuation: kept (redactJson keeps all but strings)
    }
  }

  /** What is still held at the end of the text: a literal, or the start of one (the text is unfinished), as it is. */
  flush(): string {
    return this.release(this.word);
  }

  /**
   * This masker continues after `text`, written elsewhere (an eviction digest's tool input, masked with maskJsonText):
   * read it for the state, and count the letters it ended with as written.
   */
  continueAfter(text: string): void {
    this.mask(text);
    this.wordOut = this.word.length;
  }

  /** The held word, resolved to `out`, minus what was written of it already. */
  private release(out: string): string {
    const rest = out.slice(this.wordOut);
    this.word = '';
    this.wordOut = 0;
    return rest;
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
      return !this.isKey && !this.keep && /[\p{L}\p{N}]/u.test(String.fromCharCode(parseInt(hex, 16))) ? '0078' : hex;
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
      if (this.isKey && this.keys.length > 0) this.keys[this.keys.length - 1] = this.keyText;
      this.keep = false;
      return ch;
    }
    if (this.isKey) this.keyText += ch;
    return this.isKey || this.keep ? ch : ch.replace(/[\p{L}\p{N}]/u, 'x');
  }
}

const LITERALS = ['true', 'false', 'null'];

/** Letters and digits become "x"; punctuation, whitespace and length (in code points) stay. */
export function maskText(s: string): string {
  return s.replace(/[\p{L}\p{N}]/gu, 'x');
}

/**
 * A whole JSON text (e.g. a tool call's input so far) masked as the pieces of one would be (letters held at its end
 * written out, see flush). A text cut by the memory cap (it starts with the cap's marker, in the
 * middle of the document) is masked as plain text: where its strings are is not known.
 */
export function maskJsonText(text: string, keepValueOf?: (key: string) => boolean): string {
  if (cappedBy(text) !== undefined) return maskText(text);
  const m = new JsonTextMasker(keepValueOf);
  return m.mask(text) + m.flush();
}

/**
 * The streamed-arguments maskers of one connection, one per tool call being streamed: AgentScope names it by
 * `tool_call_id`, pi by its `contentIndex` (a new `toolcall_start` there begins a new document).
 */
export class ToolArgsMaskers {
  private readonly maskers = new Map<string, JsonTextMasker>();

  /** `keepValueOf`: as JsonTextMasker's (the same keys as redactJson keeps in the parsed arguments beside them). */
  constructor(private readonly keepValueOf?: (key: string) => boolean) {}

  /** Calls whose document began where it is not known (a digest's input the cap cut): their pieces are masked whole. */
  private readonly blind = new Set<string>();

  /**
   * The call `key` continues a document that began with `text` (an eviction digest's input): read, not output. A text
   * the cap cut (see capped-text.ts) starts mid-document: then the call's pieces are masked as plain text.
   */
  seed(key: string, text: string): void {
    if (cappedBy(text) !== undefined) {
      this.blind.add(key);
      return;
    }
    const m = new JsonTextMasker(this.keepValueOf);
    m.continueAfter(text);
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
      this.blind.delete(key);
      return undefined;
    }
    if (typeof ev.delta !== 'string') return undefined;
    if (this.blind.has(key)) return { inner, masked: maskText(ev.delta) };
    let m = this.maskers.get(key);
    if (!m) this.maskers.set(key, (m = new JsonTextMasker(this.keepValueOf)));
    return { inner, masked: m.mask(ev.delta) };
  }
}
