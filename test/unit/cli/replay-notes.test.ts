import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.ts';

// replay prints what the capture holds; when the capture says it is not all there, replay says so on stderr too.
const header = '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-01-01T00:00:00Z"}';
const conn = '{"kind":"connection","id":"c","transport":"fetch","frameUrl":"","method":"GET","url":"https://a.test/stream","requestHeaders":[],"startTime":1}';
const event = (o: object) => `data: ${JSON.stringify({ id: 'e', created_at: '2026-03-01T09:00:00', metadata: {}, reply_id: 'r', ...o })}\n\n`;
const chunk = (text: string) => JSON.stringify({ kind: 'chunk', conn: 'c', t: 2, bytes: Buffer.byteLength(text), text });
const start = chunk(event({ type: 'REPLY_START', session_id: 's', name: 'a', role: 'assistant' }));
const replay = (text: string) => runCli(['replay', 'capture.replyscope.ndjson'], () => new TextEncoder().encode(text));

describe('replay notes the capture\'s own warnings', () => {
  it('a capture log cut mid-stream: the reply printed is what was left, and stderr says the file was cut short', async () => {
    const out = await replay(`${header}\n${conn}\n${start}\n${start.slice(0, 40)}`);
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)[0].replies).toHaveLength(1);
    expect(out.stderr).toMatch(/^note: https:\/\/a\.test\/stream: The capture log ends in the middle of line 4 .*the file was cut short/);
  });

  it('the file\'s warnings of no connection, one inert line each; a clean capture has no note', async () => {
    const notice = JSON.stringify({ kind: 'notice', t: 1, level: 'warning', text: 'redaction failed\n::error::x' });
    const info = JSON.stringify({ kind: 'notice', t: 1, level: 'info', text: 'a WebSocket was opened' });
    const end = '{"kind":"end","conn":"c","t":3,"state":"complete"}';
    const out = await replay(`${header}\n${notice}\n${info}\n${conn}\n${start}\n${end}\n`);
    expect(out.stderr).toBe('note: redaction failed\\n::error::x');
    expect((await replay(`${header}\n${conn}\n${start}\n${end}\n`)).stderr).toBeUndefined();
  });
});
