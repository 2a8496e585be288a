// Diagnostics raised by analysis itself (not by one protocol's lifecycle rules).
import type { DiagnosticDoc } from '../diagnostics/types.ts';

export const ANALYSIS_DIAGNOSTIC_DOCS: DiagnosticDoc[] = [
  {
    code: 'analysis.event-failed',
    severity: 'error',
    title: 'Replyscope could not analyse this event',
    explanation:
      'Analysing the event threw inside Replyscope (for example a JSON value nested thousands of levels deep ' +
      'overflows a recursive check). The event is shown as invalid and the rest of the stream is analysed as if it ' +
      'were absent; the message names the failure. Please report it with the capture.',
  },
  {
    code: 'stream.not-json',
    severity: 'error',
    title: 'Frame data is not JSON',
    explanation:
      'A data frame (or NDJSON line) could not be parsed as JSON. Both the AgentScope web UI and pi\'s streamProxy ' +
      'parse every data line as one JSON event, so the client fails or skips here.',
  },
  {
    code: 'stream.invalid-utf8',
    severity: 'warning',
    title: 'Bytes that are not UTF-8',
    explanation:
      'Part of the body is not valid UTF-8: the page\'s TextDecoder (and so every client) reads U+FFFD, "�", in ' +
      'its place. A character split across two network chunks is fine; this is one whose bytes never all arrived — ' +
      'a server that cut a multi-byte character (an emoji, CJK) when it cut its output, or a body in another encoding. ' +
      'The capture keeps those chunks\' exact bytes (as base64).',
  },
  {
    code: 'stream.unsafe-integer',
    severity: 'warning',
    title: 'An integer JavaScript cannot hold exactly',
    explanation:
      'The event has an integer literal beyond 2^53 (a 64-bit id, say). JSON.parse reads every JSON number as a ' +
      'double, so Replyscope\'s reconstruction — and any JavaScript frontend reading the stream — holds the nearest ' +
      'one instead (1234567890123456789 becomes 1234567890123456800). The raw frame shows the exact text. Sending such ' +
      'values as strings keeps them intact. Told once per connection for each path and value.',
    reference:
      'AgentScope\'s reference is Python: pydantic keeps the integer exact, so here the reconstruction differs from it. ' +
      'pi\'s client is JavaScript: it rounds the same way as the panel.',
  },
  {
    code: 'stream.held-back',
    severity: 'warning',
    title: 'The stream was held back on its way',
    explanation:
      'Some events reached the page seconds later, counted from their own created_at, than others did: something ' +
      'between the agent and the page held the stream and let it go at once, so the UI could show nothing, then ' +
      'everything. The usual cause is a proxy that buffers responses (nginx: `proxy_buffering off;` for the route, or ' +
      'the `X-Accel-Buffering: no` response header; a load balancer or CDN doing the same), a middleware compressing ' +
      'the response (gzip waits for enough bytes), or a server framework that flushes its output late. It also shows ' +
      'when the page itself read late (its main thread busy for seconds, paused in the debugger). The clocks of the ' +
      'server and the browser need not agree: what is compared is how long each event took, against the others (one ' +
      'clock is assumed to stamp the connection: agents on hosts whose clocks disagree, merged by a gateway, read ' +
      'as a spread too). Told once per connection, ' +
      'at the event that waited longest (its related event is the one that waited least), when one event waited at ' +
      'least 1 s longer than another (2 s for a created_at in whole seconds) and the events were created over at ' +
      'least that long. Events made before the request that brought them are left out (history a server replays, ' +
      'what was made while the client was away and sent when it came back, a reply a WebSocket page asked for again).',
  },
  {
    code: 'stream.unknown-dialect',
    severity: 'warning',
    title: 'No known protocol recognised',
    explanation:
      'None of the events looks like AgentScope (UPPER_SNAKE `type` with snake_case fields) or pi (`text_delta`, ' +
      '`message_update`, …). The events are listed but no message can be reconstructed.',
  },
  {
    code: 'stream.http-error',
    severity: 'error',
    title: 'The response was an HTTP error',
    explanation: 'The server answered with a non-2xx status; clients treat the body as an error message, not as events.',
  },
  {
    code: 'stream.network-error',
    severity: 'error',
    title: 'The connection failed',
    explanation: 'A network error ended the request before the stream completed: before any answer came (refused, reset, blocked by CORS, an EventSource the browser gave up on) or while the body streamed. The reply may be cut short, or missing.',
  },
  {
    code: 'stream.aborted',
    severity: 'info',
    title: 'The page stopped reading',
    explanation: 'The page cancelled its reader or aborted the request (e.g. "Stop generating") — or the page went, and the stream with it: it left (a reload, a link), its frame was removed or its tab closed.',
  },
  {
    code: 'stream.evicted',
    severity: 'info',
    alsoWarning: true,
    title: 'Older data was evicted',
    explanation:
      'The per-tab memory cap was reached and the oldest captured chunks were dropped — or the panel\'s Clear dropped ' +
      'what a stream still open had sent so far (the message says which). Replies stay inspectable from ' +
      'the eviction point on; earlier steps cannot be shown. A warning when the digest of what went lost something the ' +
      'replies go on without: an event on a line too long to keep, the head of a block\'s base64 data.',
  },
  {
    code: 'stream.resumed',
    severity: 'info',
    title: 'This request resumes an earlier stream',
    explanation:
      'The request sent a Last-Event-ID header — a client reading SSE over fetch (@microsoft/fetch-event-source, a ' +
      'hand-written reader) reconnecting after a network error or a server close — and an earlier connection of the ' +
      'same page to the same endpoint carried that SSE id. The server continues the events after it, so this ' +
      'connection starts from where the page stood there: the replies under way go on from their messages then, the ' +
      'lifecycle knows their blocks, and step 0 of each is its first event here. The page stood after the frame with ' +
      'that id and the frames after it without an id of their own (the client\'s last event ID stays the same over ' +
      'them), whole frames only. The earlier connection\'s "never ended" findings about those replies become info.',
  },
  {
    code: 'stream.resumed-uncaptured',
    severity: 'info',
    title: 'This request resumes a stream that was not captured',
    explanation:
      'The request sent a Last-Event-ID, but no earlier connection of the page to that endpoint carried that SSE id: ' +
      'it was made before the capture started, on another page, or evicted by the memory cap. Its replies start ' +
      'mid-way — their first events name replies, blocks and tool calls this connection never saw start, which the ' +
      'lifecycle findings on them are about.',
  },
  {
    code: 'stream.resume-lost-event',
    severity: 'warning',
    title: 'The resumed stream skips an event the page never got',
    explanation:
      'The Last-Event-ID is the id of a frame the earlier connection broke off inside: its `id:` line had arrived, ' +
      'the blank line that dispatches the frame had not. A client that takes the id as its line arrives ' +
      '(@microsoft/fetch-event-source does) sends it though it never dispatched that frame\'s event, and a server ' +
      'resuming after the id does not send it again — the page never gets it. (The spec\'s EventSource takes the id ' +
      'only when it dispatches the frame.) Not told when the resumed stream starts with that id again.',
  },
  {
    code: 'capture.notice',
    severity: 'info',
    alsoWarning: true,
    title: 'A note the capture left on this connection',
    explanation:
      'What the capture says about this connection: what it could not record (binary WebSocket messages, an ' +
      'XMLHttpRequest read as "json" or "blob", whose body page script never sees as it arrives), how it recorded it ' +
      '(a WebSocket from its first agent event), or how an import treated it (a HAR entry saved without its content, ' +
      'a capture log with records out of order). The message says which; its severity is the note\'s.',
  },
  {
    code: 'stream.eventsource-partial-view',
    severity: 'info',
    title: 'EventSource: only dispatched events are visible',
    explanation:
      'Page script sees the events an EventSource dispatches, not its bytes: comments/heartbeats, `retry:` fields ' +
      'and named events nobody listens for are invisible to Replyscope.',
  },
];
