// How the event and frame panes name a frame of the body. Frames are numbered from 0, as events are, but apart from
// them: a heartbeat (`:` comment), an empty keep-alive, a socket's sent or other message is a frame and no event, so
// after the first of them a frame's number runs ahead of its event's ("frame 470" beside event #469). They are
// named "frame N", never "#N" — "#" is an event's number everywhere in the panel — and by their kind in words: the
// header said "(frame 470 of the body, data)", upper-cased to "DATA" by its style, which read as a field name.
import type { FrameView } from '../../src/core/analysis/types.ts';
import type { Transport } from '../../src/core/capture/model.ts';

/** "data frame", "comment frame", "NDJSON line", "WebSocket message": what one frame of this transport's body is. */
export function frameKindWords(kind: FrameView['kind'], transport: Transport): string {
  switch (kind) {
    case 'data':
      return 'data frame'; // an SSE frame with `data:` lines
    case 'comment':
      return 'comment frame'; // an SSE frame of `:` lines only (a heartbeat)
    case 'ndjson':
      return 'NDJSON line';
    case 'message':
      return transport === 'websocket' ? 'WebSocket message' : transport === 'eventsource' ? 'EventSource message' : 'message';
  }
}

/** The raw frame's header: "data frame 470 of the body, event: delta, id: 42". */
export function frameHeaderWords(frame: Pick<FrameView, 'index' | 'kind' | 'event' | 'id'>, transport: Transport): string {
  const named = frame.kind === 'message' ? `${frameKindWords(frame.kind, transport)} ${frame.index}` : `${frameKindWords(frame.kind, transport)} ${frame.index} of the body`;
  return `${named}${frame.event ? `, event: ${frame.event}` : ''}${frame.id ? `, id: ${frame.id}` : ''}`;
}

/** The title beside it: why its number is not its event's. */
export function frameNumberTitle(frame: Pick<FrameView, 'index'>, eventIndex?: number): string {
  const apart = 'Frames are numbered from 0, as events are, but apart from them: heartbeats, keep-alives and messages that are no event are frames too';
  return eventIndex === undefined || eventIndex === frame.index ? apart : `${apart} — so frame ${frame.index} holds event #${eventIndex}`;
}
