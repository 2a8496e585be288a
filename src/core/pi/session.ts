// Convenience layer for analysis/CLI: one pi HTTP response read incrementally from decoded text chunks, giving
// the client's lines, the parsed events, the reconstruction step per event and the lifecycle diagnostics.
import type { EndState } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { initialPiReader, readPiText, type PiLine, type PiLineReaderState } from './client-reading.ts';
import { initialPiLifecycle, stepPiLifecycle, type PiLifecycleState } from './lifecycle.ts';
import type { PiEventForm } from './validate.ts';

export interface PiSession {
  readonly reader: PiLineReaderState;
  readonly lifecycle: PiLifecycleState;
  /** Data payloads seen (= next event index). */
  readonly events: number;
}

export interface PiSessionEvent {
  index: number;
  line: PiLine;
  /** Parsed payload; undefined when `parseError` is set. */
  raw?: unknown;
  parseError?: string;
}

export interface PiFeedResult {
  session: PiSession;
  /** Every complete line (also the ones the client ignores). */
  lines: PiLine[];
  /** The data payloads among them, as events. */
  events: PiSessionEvent[];
  diagnostics: Diagnostic[];
}

/** `requestBody`: the client's parsed POST body (its `model` starts the message); `form` forces the dialect. */
export function startPiSession(requestBody?: unknown, form?: PiEventForm): PiSession {
  return { reader: initialPiReader, lifecycle: initialPiLifecycle(requestBody, form), events: 0 };
}

/** Response head: a non-2xx status is a client failure (pass the body text for the error message). */
export function piSessionResponse(session: PiSession, status: number, statusText?: string, bodyText?: string): { session: PiSession; diagnostics: Diagnostic[] } {
  const r = stepPiLifecycle(session.lifecycle, { kind: 'response', status, statusText, bodyText });
  return { session: { ...session, lifecycle: r.state }, diagnostics: r.diagnostics };
}

export function feedPiText(session: PiSession, text: string): PiFeedResult {
  const read = readPiText(session.reader, text);
  let lifecycle = session.lifecycle;
  let events = session.events;
  const out: PiSessionEvent[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const line of read.lines) {
    const lineStep = stepPiLifecycle(lifecycle, { kind: 'line', line });
    lifecycle = lineStep.state;
    diagnostics.push(...lineStep.diagnostics);
    if (line.data === undefined) continue;
    const index = events++;
    let ev: PiSessionEvent;
    try {
      ev = { index, line, raw: JSON.parse(line.data) };
    } catch (error) {
      ev = { index, line, parseError: error instanceof Error ? error.message : String(error) };
    }
    out.push(ev);
    const step =
      ev.parseError !== undefined
        ? stepPiLifecycle(lifecycle, { kind: 'malformed', index, data: line.data, error: ev.parseError })
        : stepPiLifecycle(lifecycle, { kind: 'event', index, raw: ev.raw });
    lifecycle = step.state;
    diagnostics.push(...step.diagnostics);
  }
  return { session: { reader: read.state, lifecycle, events }, lines: read.lines, events: out, diagnostics };
}

/** The body ended (how: `endState`, default complete): unterminated last line, abort, missing terminal event. */
export function endPiSession(session: PiSession, endState?: EndState, error?: string): Diagnostic[] {
  return stepPiLifecycle(session.lifecycle, { kind: 'end', pending: session.reader.buffer, endState, error }).diagnostics;
}
