// The two statuses a step has, in words: the event list's Status (the event's validity and its worst diagnostic) and
// the scrubber's step status (what the reference `append_event` did to the message). Both are true of one event and
// can differ — a TEXT_BLOCK_START that changed the message and reported the deltas dropped before it: "changed" and
// "error" — so the scrubber says the second beside the first, in the colour the list gives it. Apart from the
// components so that a unit test reads them.
import type { EventView, ReplyView } from '../../src/core/analysis/types.ts';
import type { Diagnostic } from '../../src/core/diagnostics/types.ts';

export type EventStatus = 'invalid' | 'error' | 'warning' | 'extras' | 'ok';
export type StepStatus = ReplyView['stepStatus'][number];

/** `ok`, `dim`, `warn`, `err`: the panel's classes for good, quiet, warning and error text. */
export interface StatusWord {
  text: string;
  cls: 'ok' | 'dim' | 'warn' | 'err';
}

/** The event list's Status of event `e`; `extra`: the connection's diagnostics told at it (see extraDiagnostics). */
export function eventStatus(e: Pick<EventView, 'valid' | 'diagnostics' | 'extras'>, extra?: readonly Diagnostic[]): StatusWord & { text: EventStatus } {
  if (!e.valid) return { text: 'invalid', cls: 'err' };
  const diagnostics = extra ? [...e.diagnostics, ...extra] : e.diagnostics;
  if (diagnostics.some((d) => d.severity === 'error')) return { text: 'error', cls: 'err' };
  if (diagnostics.some((d) => d.severity === 'warning')) return { text: 'warning', cls: 'warn' };
  if (e.extras.length) return { text: 'extras', cls: 'dim' };
  return { text: 'ok', cls: 'ok' };
}

/** The scrubber's step status, coloured as before: changed green, unchanged dim, the rest (warned, invalid, error) red. */
export function stepStatusWord(status: StepStatus): StatusWord {
  return { text: status, cls: status === 'changed' ? 'ok' : status === 'unchanged' ? 'dim' : 'err' };
}

/** The event status a step status already says: "warned" is the warning, "invalid" and "error" the same words. */
const SAID_BY_STEP: Partial<Record<StepStatus, EventStatus>> = { warned: 'warning', invalid: 'invalid', error: 'error' };

/**
 * The event's status to say beside the step status, or undefined when there is nothing more to say: the event is
 * fine (ok, or only extra fields, which the list dims), or the step status already says it.
 */
export function eventStatusBeside(step: StepStatus, event: StatusWord & { text: EventStatus }): StatusWord | undefined {
  if (event.text === 'ok' || event.text === 'extras') return undefined;
  return SAID_BY_STEP[step] === event.text ? undefined : event;
}

/** The title of the scrubber's "#469 · changed · error": what each word is about. */
export function stepStatusTitle(eventIndex: number, step: StepStatus, beside: StatusWord | undefined): string {
  const stepLine = `${step}: what the reference append_event did to the message with event #${eventIndex}`;
  return beside
    ? `${stepLine}\n${beside.text}: ${beside.text === 'invalid' ? 'the event failed validation' : 'the worst diagnostic of this event'} (the event list's Status)`
    : `Connection event index · ${stepLine}`;
}
