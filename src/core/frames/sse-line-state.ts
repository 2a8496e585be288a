// What the SSE spec's reading stands at between two lines, kept from the lines alone (no frames, no data): whether a
// frame is pending — a `data` field read since the last blank line, or an `event` field naming it — and the last event
// ID buffer. An
// eviction digest keeps it for an SSE body (EvictionDerived.sse): a reading of the text kept after the cut then knows
// whether that text begins a frame (a whole event, not the rest of one), and which id its first events carry — the
// spec's buffer persists across events, so an id sent only in the evicted head is still every later event's.
// Field names as SseSpecDecoder reads them (sse-spec.ts): the text before the first colon, the whole line without one.

export class SseLineState {
  /** A `data` field was read since the last blank line, or an `event` field named the event; undefined: not known. */
  pending: boolean | undefined = false;
  /** Of `pending`: a `data` field, and the event's name (an empty `event:` field takes it back, as the spec reads it). */
  private data = false;
  private named = false;
  /** The last event ID buffer ('' before any `id:` line); undefined: not known. */
  lastEventId: string | undefined = '';
  private first = true;

  /**
   * One line as the client splits them, at "\n" (without it): the spec ends a line at CR too, and takes a CR before
   * the LF as one line end with it.
   */
  clientLine(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (!text.includes('\r')) this.specLine(text);
    else for (const part of text.split('\r')) this.specLine(part);
  }

  /** A line whose text was not kept (the digest gave it up, too long): what it and the rest of its line set is not known. */
  lost(): void {
    this.data = this.named = false;
    this.pending = undefined;
    this.lastEventId = undefined;
  }

  private specLine(line: string): void {
    if (this.first) {
      this.first = false;
      if (line.startsWith('\u00ef\u00bb\u00bf')) line = line.slice(3); // a mis-decoded BOM, as SseSpecDecoder strips it
    }
    if (line === '') {
      this.data = this.named = false; // a blank line dispatches the frame, or drops one without data
      this.pending = false;
      return;
    }
    if (line.startsWith('data:') || line === 'data') this.data = true;
    else if (line.startsWith('event:') || line === 'event') this.named = fieldValue(line, 5) !== '';
    else if (line.startsWith('id:') || line === 'id') {
      const value = fieldValue(line, 2);
      if (!value.includes('\0')) this.lastEventId = value;
    }
    // (Once not known, a field line leaves it so: only a blank line says where a frame begins again.)
    if (this.data || this.named) this.pending = true;
    else if (this.pending === true) this.pending = false;
  }
}

/** The value of a field line whose name is `name` characters long: after its colon and one space, if any. */
function fieldValue(line: string, name: number): string {
  return line.slice(line.charCodeAt(name + 1) === 32 ? name + 2 : name + 1);
}
