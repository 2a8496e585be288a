// The scrubber's step status beside the event list's Status: said once when they agree, both when they differ.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/core/diagnostics/types.ts';
import { eventStatus, eventStatusBeside, stepStatusTitle } from '../../../panel/lib/event-status.ts';

const diag = (severity: Diagnostic['severity']): Diagnostic => ({ code: 'x', severity, index: 0, message: '' });
const ev = (diagnostics: Diagnostic[], valid = true, extras: string[] = []) => ({ valid, diagnostics, extras });

describe('eventStatus (the event list\'s Status)', () => {
  it('invalid first, then the worst diagnostic — the connection\'s told at the event too — then extra fields', () => {
    expect(eventStatus(ev([diag('error')], false)).text).toBe('invalid');
    expect(eventStatus(ev([diag('info'), diag('error')])).text).toBe('error');
    expect(eventStatus(ev([diag('info')]), [diag('warning')])).toEqual({ text: 'warning', cls: 'warn' });
    expect(eventStatus(ev([], true, ['foo'])).text).toBe('extras');
    expect(eventStatus(ev([diag('info')]))).toEqual({ text: 'ok', cls: 'ok' });
  });
});

describe('eventStatusBeside (what the scrubber adds to the step status)', () => {
  it('a START that changed the message and reported an error: "changed · error", in the list\'s colour', () => {
    expect(eventStatusBeside('changed', eventStatus(ev([diag('error')])))).toEqual({ text: 'error', cls: 'err' });
    expect(eventStatusBeside('unchanged', eventStatus(ev([diag('warning')])))).toEqual({ text: 'warning', cls: 'warn' });
  });

  it('nothing when the event is fine, or the step status already says it', () => {
    expect(eventStatusBeside('changed', eventStatus(ev([])))).toBeUndefined();
    expect(eventStatusBeside('changed', eventStatus(ev([], true, ['foo'])))).toBeUndefined();
    expect(eventStatusBeside('warned', eventStatus(ev([diag('warning')])))).toBeUndefined();
    expect(eventStatusBeside('error', eventStatus(ev([diag('error')])))).toBeUndefined();
    expect(eventStatusBeside('invalid', eventStatus(ev([], false)))).toBeUndefined();
    // A warned step whose event also reported an error: the error is more than the step says.
    expect(eventStatusBeside('warned', eventStatus(ev([diag('error')])))?.text).toBe('error');
  });

  it('the title says what each word is about', () => {
    const title = stepStatusTitle(469, 'changed', { text: 'error', cls: 'err' });
    expect(title).toBe("changed: what the reference append_event did to the message with event #469\nerror: the worst diagnostic of this event (the event list's Status)");
  });
});
