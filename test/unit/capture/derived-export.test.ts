// The panel's derived exports read back: the diagnostics report and the reconstructed messages are refused as what
// they are (in the panel's import and the CLI alike: both read through loadInput); one reply's events are events.
import { describe, expect, it } from 'vitest';
import { InputError, loadInput } from '../../../src/core/capture/load-input.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { runCli } from '../../../src/cli/commands.ts';
import { buildExport } from '../../../panel/store/export.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { failureOutput } from '../../../src/cli/run-errors.ts';

const sample = sampleCapture();
const none = { headers: false, requestBodies: false, textContent: false };
const exported = (kind: 'diagnostics' | 'messages') => buildExport(sample, { kind, redaction: none }).text;
const refusal = (text: string, name: string) => {
  try {
    loadInput(text, name);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  return undefined;
};

describe('derived exports', () => {
  it('a diagnostics report is refused as one, with what to import instead', () => {
    const message = refusal(exported('diagnostics'), 'report.json');
    expect(message).toMatch(/^report\.json: this is a Replyscope diagnostics report \(Export → "Diagnostics report \(JSON\)"\)/);
    expect(message).toContain('import the capture log (.replyscope.ndjson) or the HAR it was exported from');
    // What it points to instead: one reply's events are the stream's own, read to the same reply.
    const conn = analyzeCapture(sample).find((c) => c.replies.length > 0)!;
    const reply = conn.replies[0];
    const events = buildExport(sample, { kind: 'reply-events', reply: { connection: conn.record.id, reply: reply.id }, redaction: none }).text;
    const [read] = analyzeCapture(loadInput(events, 'reply.json'));
    expect(read.replies.map((r) => [r.id, r.eventIndices.length])).toEqual([[reply.id, reply.eventIndices.length]]);
    // An event that happens to carry such fields besides its type is still an event.
    const odd = [{ type: 'REPLY_START', reply_id: 'r', connection: 'c', url: 'u', diagnostics: [], created_at: '2026-03-01T09:00:00' }];
    expect(() => loadInput(JSON.stringify(odd), 'odd.json')).not.toThrow();
  });

  it('the reconstructed messages are refused as such', () => {
    expect(refusal(exported('messages'), 'messages.json')).toMatch(/^messages\.json: this is Replyscope's reconstructed messages \(Export → "Reconstructed messages \(JSON\)"\)/);
  });

  it('the messages are refused as such when a reply has no message (its entry says null; an earlier export left the key out)', () => {
    // A pi event whose `partial` is null: the reply is there, its message is not.
    const body = 'data: {"type":"start","partial":null}\n\n';
    const capture = { ...sample, records: [...sample.records,
      { kind: 'connection' as const, id: 'none:1', transport: 'fetch' as const, frameUrl: 'https://app.example/', method: 'GET', url: 'https://app.example/pi',
        requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']] as [string, string][], startTime: 9_000_000_000_000 },
      { kind: 'chunk' as const, conn: 'none:1', t: 9_000_000_000_001, bytes: body.length, text: body },
      { kind: 'end' as const, conn: 'none:1', t: 9_000_000_000_002, state: 'complete' as const },
    ] };
    const text = buildExport(capture, { kind: 'messages', redaction: none }).text;
    const entries = JSON.parse(text) as Record<string, unknown>[];
    expect(entries.at(-1)).toEqual({ connection: 'none:1', url: 'https://app.example/pi', reply: 'none:1#0', dialect: 'pi-assistant', message: null });
    expect(refusal(text, 'messages.json')).toMatch(/^messages\.json: this is Replyscope's reconstructed messages/);
    const { message: _, ...old } = entries.at(-1)!;
    expect(refusal(JSON.stringify([...entries.slice(0, -1), old]), 'old.json')).toMatch(/^old\.json: this is Replyscope's reconstructed messages/);
  });

  it('the CLI says the same, as bad input (exit 2)', async () => {
    const report = new TextEncoder().encode(exported('diagnostics'));
    const err = await runCli(['validate', 'report.json'], () => report).then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/^report\.json: this is a Replyscope diagnostics report/);
    expect((err as { exitCode?: number }).exitCode).toBe(2);
  });

  it('the CLI\'s own outputs are refused as what they are: validate --json, replay, replay --steps (exit 2, not read as events)', async () => {
    const log = new TextEncoder().encode(writeCaptureLog(sample));
    const outputOf = async (...args: string[]) => {
      const out = await runCli([...args, 'sample.replyscope.ndjson'], () => log);
      return out.stdout + [...(out.lines ?? [])].join('');
    };
    const cases: [string, string, string][] = [
      [await outputOf('validate', '--json'), 'report.json', 'validate --json'],
      [await outputOf('replay'), 'replies.json', 'replay'],
      [await outputOf('replay', '--steps'), 'steps.ndjson', 'replay --steps'],
    ];
    for (const [text, name, command] of cases) {
      expect(refusal(text, name), command).toMatch(new RegExp(`^${name.replace('.', '\\.')}: this is the output of "replyscope ${command}": `));
      const err = await runCli(['validate', name], () => new TextEncoder().encode(text)).then(() => undefined, (e: Error) => e);
      expect((err as { exitCode?: number } | undefined)?.exitCode, command).toBe(2);
    }
    // A one-step reply's --steps output is one line: one JSON object, told alike.
    const [oneStep] = cases[2][0].split('\n');
    expect(refusal(oneStep, 'step.ndjson')).toMatch(/^step\.ndjson: this is the output of "replyscope replay --steps"/);
    // The usage error's entry (`file` and `connection` null) is the report too.
    const usage = failureOutput('json', false, 'unknown option --frob for validate (--help for usage)')!;
    expect(refusal(usage, 'usage.json')).toMatch(/"replyscope validate --json"/);
  });
});
