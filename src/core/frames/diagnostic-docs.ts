// Documentation of the frame-level diagnostic codes (`sse.*`), shown by the panel's Diagnostics view and the CLI.
import type { DiagnosticDoc } from '../diagnostics/types.ts';

const CLIENT_REF =
  'AgentScope web UI, examples/web_ui/frontend/src/api/session.ts `streamEvents`: splits the decoded body on "\\n", ' +
  'keeps lines starting exactly "data: ", trims and JSON.parses the rest, yields one event per line. ' +
  'pi-agent-core 0.73.1 streamProxy (dist/proxy.js) reads its body the same way.';

export const FRAME_DIAGNOSTIC_DOCS: DiagnosticDoc[] = [
  {
    code: 'sse.client-drops-frame',
    severity: 'error',
    title: 'The client drops this frame',
    explanation:
      'The SSE spec dispatches this frame as an event, but the AgentScope client yields nothing for it — typically ' +
      'because its data lines start "data:" without a space (valid SSE), or because no newline follows it at the end ' +
      'of the body. The app never sees the event; what it renders lacks it.',
    reference: CLIENT_REF,
  },
  {
    code: 'sse.client-splits-multiline-data',
    severity: 'error',
    title: 'Multi-line data read as separate events',
    explanation:
      'The frame has several data lines. The spec joins them with "\\n" into one event; the AgentScope client parses ' +
      'each line as its own JSON event, which fails (and stops the stream) unless every line is complete JSON.',
    reference: CLIENT_REF,
  },
  {
    code: 'sse.client-misreads-frame',
    severity: 'error',
    title: 'The client reads different text',
    explanation:
      'Only some of the frame\'s data lines start exactly "data: ", so the client parses a different text than the ' +
      'event the spec delivers.',
    reference: CLIENT_REF,
  },
  {
    code: 'sse.client-cr-line-endings',
    severity: 'error',
    title: 'Bare CR line endings',
    explanation:
      'CR alone ends a line in SSE, but the AgentScope client splits on "\\n" only: it sees several lines as one, ' +
      'so frames are merged, dropped or fail to parse. Servers should end lines with "\\n" (or CRLF).',
    reference: CLIENT_REF,
  },
  {
    code: 'sse.client-json-error',
    severity: 'error',
    title: 'JSON.parse throws in the client — the stream stops',
    explanation:
      'The text after "data: " is not JSON. The AgentScope client calls JSON.parse without a try/catch inside its ' +
      'async generator, so the generator throws and every later frame is lost to the app.',
    reference: CLIENT_REF,
  },
  {
    code: 'sse.client-ignores-event-name',
    severity: 'info',
    title: 'The client ignores the event name',
    explanation:
      'The frame carries an `event:` name. An EventSource would deliver it only to listeners of that name; the ' +
      'AgentScope client ignores `event:` lines and treats the data as an ordinary agent event.',
    reference: CLIENT_REF,
  },
  {
    code: 'sse.client-reads-unterminated-frame',
    severity: 'warning',
    title: 'Last frame not closed by a blank line',
    explanation:
      'The body ends after data lines that no blank line closed. The spec (and EventSource) discards such an ' +
      'unfinished event at end of body; the AgentScope client, reading line by line, still yields it. Readers disagree.',
    reference: CLIENT_REF,
  },
  {
    code: 'sse.unterminated-final-line',
    severity: 'warning',
    title: 'Body ends mid-line',
    explanation:
      'The last line has no newline. Neither the spec nor the AgentScope client (which drops its unfinished buffer ' +
      'when the body ends) delivers it: the server must end every frame with a blank line.',
  },
  {
    code: 'sse.ignored-line',
    severity: 'warning',
    title: 'Line ignored by the SSE parser',
    explanation:
      'A line with an unknown field name or an invalid `retry:` value. The spec ignores it; it is often a typo ' +
      '(e.g. "date:" for "data:") that silently loses data.',
  },
];
