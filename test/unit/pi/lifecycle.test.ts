// Lifecycle diagnostics on the published conformance bodies: each quirk the reference has must be flagged with
// the code that explains it, clean streams must stay clean, and every code must be documented.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PI_CODES } from '../../../src/core/pi/diagnostic-codes.ts';
import { PI_DIAGNOSTIC_DOCS } from '../../../src/core/pi/diagnostic-docs.ts';
import { endPiSession, feedPiText, piSessionResponse, startPiSession } from '../../../src/core/pi/session.ts';
import type { Diagnostic } from '../../../src/core/diagnostics/types.ts';
import { validatePiEvent } from '../../../src/core/pi/validate.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const casesDir = path.resolve(repoRoot, '../shared/conformance/pi/cases');
const loadCase = (name: string) => JSON.parse(readFileSync(path.join(casesDir, `${name}.json`), 'utf8'));

function diagnose(name: string): Diagnostic[] {
  const c = loadCase(name);
  let session = startPiSession({ model: c.client.model });
  const out: Diagnostic[] = [];
  if (c.http) {
    const body = typeof c.http.body === 'string' ? c.http.body : JSON.stringify(c.http.body);
    const r = piSessionResponse(session, c.http.status, 'Error', body);
    session = r.session;
    out.push(...r.diagnostics);
  }
  const chunks: string[] = c.raw ?? (c.events ?? []).map((e: unknown) => `data: ${JSON.stringify(e)}\n\n`);
  for (const chunk of chunks) {
    const fed = feedPiText(session, chunk);
    session = fed.session;
    out.push(...fed.diagnostics);
  }
  return [...out, ...endPiSession(session)];
}

const codes = (ds: Diagnostic[]) => ds.map((d) => `${d.code}@${d.index}`);

describe('pi lifecycle diagnostics', () => {
  it('is silent on clean streams', () => {
    for (const name of ['text_basic', 'done_stop', 'done_toolUse', 'thinking_text_signatures', 'toolcall_partial_json']) {
      expect(diagnose(name), name).toEqual([]);
    }
  });

  it('flags each reference quirk with its code and event index', () => {
    expect(codes(diagnose('text_delta_on_non_text_index'))).toEqual([
      'pi.content-kind-mismatch@3',
      'pi.ignored-after-failure@4',
    ]);
    expect(diagnose('text_delta_on_non_text_index')[0].message).toContain('thinking block');
    expect(codes(diagnose('text_delta_on_missing_index'))).toEqual(['pi.delta-on-missing-index@1', 'pi.ignored-after-failure@2']);
    expect(codes(diagnose('toolcall_end_on_non_toolcall_ignored'))).toEqual(['pi.toolcall-end-ignored@3', 'pi.toolcall-end-ignored@4']);
    expect(codes(diagnose('events_after_done'))).toEqual([
      'pi.frame-after-terminal@5',
      'pi.frame-after-terminal@6',
      'pi.frame-after-terminal@7',
      'pi.frame-after-terminal@8',
      'pi.frame-after-terminal@9',
    ]);
    expect(codes(diagnose('final_frame_without_newline'))).toEqual(['pi.unterminated-final-line@2', 'pi.no-terminal@2']);
    expect(codes(diagnose('malformed_json_frame'))).toEqual(['pi.malformed-json@2', 'pi.ignored-after-failure@3']);
    expect(codes(diagnose('unknown_event_type'))).toEqual(['pi.unknown-event-type@1', 'pi.unknown-event-type@5']);
    expect(codes(diagnose('toolcall_invalid_json_midway'))).toEqual(['pi.toolcall-args-invalid@6', 'pi.toolcall-args-invalid@11']);
    expect(codes(diagnose('toolcall_json_repair'))).toEqual(['pi.toolcall-args-repaired@5', 'pi.toolcall-args-invalid@8']);
    expect(codes(diagnose('no_start_event'))).toEqual(['pi.missing-start@0']);
    expect(codes(diagnose('http_error_json_body'))).toEqual(['pi.http-error@0']);
    expect(codes(diagnose('non_sse_200_body'))).toEqual(['pi.unterminated-final-line@0', 'pi.no-terminal@0']);
    expect(codes(diagnose('error_error'))).toEqual(['pi.stream-error@3']);
    expect(codes(diagnose('done_without_usage'))).toEqual(['pi.invalid-event@4']);
    expect(diagnose('missing_content_index').map((d) => d.code)).toContain('pi.missing-content-index');
    const quirks = diagnose('sse_framing_quirks').map((d) => d.code);
    expect(quirks).toContain('pi.data-without-space');
    expect(quirks).toEqual(['pi.data-without-space']);
    const restarted = feedPiText(
      startPiSession(),
      'data: {"type":"start"}\n\ndata: {"type":"thinking_start","contentIndex":0}\n\ndata: {"type":"text_start","contentIndex":0}\n\n',
    );
    expect(codes(restarted.diagnostics)).toEqual(['pi.block-restarted@2']);
    expect(restarted.diagnostics[0].message).toContain('thinking block');
  });

  it('tells integers in tool-call arguments that JSON.parse rounds, at toolcall_end (proxy form: no partial)', () => {
    const frames = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
    const call = (i: number, parts: string[]) => [
      { type: 'toolcall_start', contentIndex: i, id: `call_${i}`, toolName: 'lookup' },
      ...parts.map((delta) => ({ type: 'toolcall_delta', contentIndex: i, delta })),
      { type: 'toolcall_end', contentIndex: i },
    ];
    const fed = feedPiText(startPiSession(), frames([
      { type: 'start' },
      ...call(0, ['{"channel": 11223344556677', '88990, "limit": 10}']),
      ...call(1, ['{"max": 9007199254740991, "printsAlike": 70065005125618410, "id": "12345678901234567890"}']),
      // Needs pi-ai's repair (a raw tab in a string) and still holds one.
      ...call(2, ['{"note": "a\tb", "ids": [1, -12345678901234567891]}']),
      { type: 'done', reason: 'toolUse', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } },
    ]));
    expect(codes(fed.diagnostics)).toEqual(['pi.toolcall-args-unsafe-integer@4', 'pi.toolcall-args-repaired@10', 'pi.toolcall-args-unsafe-integer@10']);
    expect(fed.diagnostics[0].message).toBe('the arguments of content[0] hold the integer 1122334455667788990 at channel, beyond 2^53: ' +
      "pi-ai's JSON.parse — and so the tool — reads 1122334455667788900");
    expect(fed.diagnostics[2].message).toContain('-12345678901234567891 at ids.1');
  });

  it('tells them in the assistant form too, where only the partial\'s partialJson still has the digits', () => {
    const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const base = { role: 'assistant', api: 'anthropic-messages', provider: 'anthropic', model: 'm', usage, stopReason: 'stop', timestamp: 1 };
    const text = '{"channel": 1122334455667788990';
    // What the server's own JSON.parse made of the arguments: already rounded, so the events' numbers print alike.
    const args = JSON.parse(`${text}}`);
    const block = (partialJson?: string) => ({ type: 'toolCall', id: 'c', name: 'lookup', arguments: partialJson === '' ? {} : args, ...(partialJson === undefined ? {} : { partialJson }) });
    const msg = (partialJson?: string) => ({ ...base, content: [block(partialJson)] });
    const events = [
      { type: 'start', partial: { ...base, content: [] } },
      { type: 'toolcall_start', contentIndex: 0, partial: msg('') },
      { type: 'toolcall_delta', contentIndex: 0, delta: text, partial: msg(text) },
      { type: 'toolcall_delta', contentIndex: 0, delta: '}', partial: msg(`${text}}`) },
      { type: 'toolcall_end', contentIndex: 0, toolCall: block(), partial: msg() },
      { type: 'done', reason: 'toolUse', message: { ...msg(), stopReason: 'toolUse' } },
    ];
    const fed = feedPiText(startPiSession(), events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
    expect(codes(fed.diagnostics)).toEqual(['pi.toolcall-args-unsafe-integer@4']);
  });

  it('treats an aborted or broken connection as the client does, not as a missing terminal event', () => {
    const fed = feedPiText(startPiSession(), 'data: {"type":"start"}\n\ndata: {"type":"text_start","contentIndex":0}\n\n');
    expect(codes(endPiSession(fed.session))).toEqual(['pi.no-terminal@1']);
    expect(codes(endPiSession(fed.session, 'aborted'))).toEqual(['pi.stream-aborted@1']);
    const broken = endPiSession(fed.session, 'error', 'terminated');
    expect(codes(broken)).toEqual(['pi.network-error@1']);
    expect(broken[0].message).toContain('terminated');
    expect(endPiSession(fed.session, 'open')).toEqual([]);
  });

  it('tells the errorMessage of an error event in either form: on the proxy event, in pi-ai\'s error message', () => {
    const message = { role: 'assistant', stopReason: 'error', content: [], api: 'a', provider: 'p', model: 'm', errorMessage: 'overloaded_error', timestamp: 1 };
    const proxy = feedPiText(startPiSession(), 'data: {"type":"start"}\n\ndata: {"type":"error","reason":"error","errorMessage":"overloaded_error"}\n\n');
    const assistant = feedPiText(startPiSession(), [{ type: 'start', partial: { ...message, stopReason: 'stop', errorMessage: undefined } }, { type: 'error', reason: 'error', error: message }]
      .map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
    for (const fed of [proxy, assistant]) {
      expect(fed.diagnostics.filter((x) => x.code === 'pi.stream-error').map((x) => x.message)).toEqual(['server error event (error): overloaded_error']);
    }
  });

  it('documents every code', () => {
    const documented = new Set(PI_DIAGNOSTIC_DOCS.map((d) => d.code));
    for (const code of Object.values(PI_CODES)) expect(documented, code).toContain(code);
    expect(PI_DIAGNOSTIC_DOCS.every((d) => d.code.startsWith('pi.') && d.explanation && d.title)).toBe(true);
  });

  it('validates proxy events of the cases and explains failures', () => {
    const ok = loadCase('done_toolUse').events.map((e: unknown) => validatePiEvent(e));
    expect(ok.every((v: { ok: boolean; form?: string }) => v.ok && v.form === 'proxy')).toBe(true);
    const bad = validatePiEvent({ type: 'done', reason: 'stop' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues.map((i) => i.path)).toEqual(['usage']);
    expect(validatePiEvent({ type: 'text_delta', contentIndex: 0, delta: 'x', extra: 1 })).toMatchObject({ ok: true, extras: ['extra'] });
    expect(validatePiEvent({ type: 'ping' })).toMatchObject({ ok: false, issues: [{ path: 'type' }] });
    expect(validatePiEvent([1])).toMatchObject({ ok: false });
  });
});
