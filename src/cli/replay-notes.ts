// What `replay` says on stderr beside its output: where the output is not what the app's client had, or not all of
// it. Split from commands.ts.
import type { ConnectionView } from '../core/analysis/types.ts';
import { evictedByText, joinedCause, type EvictionCause } from '../core/capture/eviction-cause.ts';
import { printable } from './printable.ts';
import { TIMEOUT_CODE } from './input-cut.ts';
import { plural, type InputNote } from './validate.ts';

/**
 * A note for `replay` when the output cannot equal the reference's: integers beyond 2^53 that JSON.parse rounded
 * (the Python reference keeps them exact; see rounded-integers.ts). Undefined when there are none.
 */
function roundingNote(conns: ConnectionView[]): string | undefined {
  const n = conns.reduce((sum, c) => sum + c.diagnostics.filter((d) => d.code === 'stream.unsafe-integer').length, 0);
  if (n === 0) return undefined;
  return `note: ${plural(n, 'event')} held integers beyond 2^53, which this output has as the nearest JavaScript number ` +
    '(a Python consumer keeps them exact); "replyscope validate FILE" lists them (stream.unsafe-integer)';
}

/**
 * A note for `replay` of a pi proxy stream read without its request (a bare SSE body): streamProxy starts the message
 * from the request's model (api, provider, model), which the input does not hold — the output lacks those fields.
 */
function requestNote(conns: ConnectionView[]): string | undefined {
  const n = conns.filter((c) => c.dialect === 'pi-proxy' && c.record.requestBody === undefined).length;
  if (n === 0) return undefined;
  return `note: ${n === 1 ? 'a pi stream' : `${n} pi streams`} without the request that started ${n === 1 ? 'it' : 'them'}: streamProxy takes ` +
    'the message\'s api, provider and model from the request, so this output has none (a capture log or a HAR keeps the request)';
}

/**
 * A note for `replay` of a capture whose head the memory cap (or the panel's Clear, the stream still open) evicted:
 * what its output lacks.
 */
function evictionNote(conns: ConnectionView[]): string | undefined {
  let n = 0;
  let by: EvictionCause | undefined;
  for (const c of conns) {
    const k = c.replies.filter((r) => r.continuesEviction).length;
    if (k > 0) by = joinedCause(by, c.evictedBy ?? 'cap');
    n += k;
  }
  if (n === 0) return undefined;
  return `note: ${plural(n, 'reply', 'replies')} began before ${evictedByText(by ?? 'cap')} evicted ${n === 1 ? 'its' : 'their'} head ("continuesEviction"): ` +
    '"events" counts the events kept, and a string longer than 1 Mi characters keeps its newest part behind a "[… N older characters evicted …]" marker';
}

/**
 * A note for `replay` of a stream resumed on a new connection (Last-Event-ID): the reply is listed on both, as each
 * connection left it — the later one's `final` is the message the page ended with.
 */
function resumeNote(conns: ConnectionView[]): string | undefined {
  const n = conns.reduce((sum, c) => sum + c.replies.filter((r) => r.continuesConnection !== undefined).length, 0);
  if (n === 0) return undefined;
  return `note: ${plural(n, 'reply', 'replies')} went on on a connection that resumed the stream (Last-Event-ID, "continuesConnection"): ` +
    `listed under both, ${n === 1 ? 'its' : 'their'} "final" on the resuming connection is the page's whole message, on the earlier one where it broke off`;
}

/**
 * A note for `replay` of a pi stream that ended without `done` or `error`: the client's result() never settles, and
 * the message printed is its state when the body ended — its stopReason "stop" is the initial value, not an outcome.
 */
function unsettledNote(conns: ConnectionView[]): string | undefined {
  const n = conns.reduce((sum, c) => sum + c.replies.filter((r) => r.diagnostics.some((d) => d.code === 'pi.no-terminal')).length, 0);
  if (n === 0) return undefined;
  return `note: ${plural(n, 'pi reply', 'pi replies')} ended without done or error: the client's result() never settles, and its message is ` +
    'printed as it stood when the body ended (its stopReason "stop" is the initial value, not how it ended); "replyscope validate FILE" reports pi.no-terminal';
}

/**
 * The capture's own warnings: a log cut short, a body the capture could not record. replay printed what was left as if
 * it were all — a capture log cut mid-stream gave a shorter reply and exit 0, with nothing said (validate said it).
 */
function captureWarnings(conns: ConnectionView[], notices: readonly InputNote[]): string | undefined {
  const warnings = [
    ...notices.filter((n) => n.level === 'warning').map((n) => n.text),
    ...conns.flatMap((c) => c.diagnostics.filter((d) => d.code === 'capture.notice' && d.severity === 'warning').map((d) => `${c.record.url}: ${d.message}`)),
  ];
  if (warnings.length === 0) return undefined;
  const shown = warnings.slice(0, 3).map((w) => `note: ${printable(w)}`); // the input's text: one inert line each
  if (warnings.length > 3) shown.push(`note: … and ${warnings.length - 3} more warnings of the capture ("replyscope validate FILE" lists them: capture.notice)`);
  return shown.join('\n');
}

/** replay's notes for stderr, one a line, or undefined when there are none. */
export function replayNotes(conns: ConnectionView[], notices: readonly InputNote[]): string | undefined {
  // First: that --timeout cut the input (what is printed is what had arrived by then).
  const cut = notices.find((n) => n.code === TIMEOUT_CODE);
  const notes = [cut && `note: ${cut.text}`, captureWarnings(conns, notices), roundingNote(conns), requestNote(conns), evictionNote(conns), resumeNote(conns), unsettledNote(conns)];
  return notes.filter((x) => x !== undefined).join('\n') || undefined;
}
