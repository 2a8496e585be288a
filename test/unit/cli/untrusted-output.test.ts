import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { useTempDir } from '../temp-dir.ts';

// A stream is input the CLI does not control: what it prints of one must not act on the terminal or on the GitHub
// Actions runner, which reads every line of a step's stdout and stderr that starts with "::" as a workflow command.
const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');
const cli = (...args: string[]) => run(process.execPath, [BIN, ...args]).then((r) => ({ ...r, code: 0 }), (e) => e as { stdout: string; stderr: string; code: number });

const dir = useTempDir('rs-untrusted-');

function file(name: string, text: string): string {
  const f = path.join(dir(), name);
  writeFileSync(f, text);
  return f;
}

// An event type with a newline, a workflow command after it and a terminal colour: quoted by validate's text report,
// where it names the event of a diagnostic (here an unknown event type in a reply of an AgentScope stream; alone in its
// stream, its diagnostic — no known dialect — is the connection's, and names no event).
const hostileType = () => {
  const event = (e: object) => `data: ${JSON.stringify({ id: 'e1', created_at: '2026-01-01T00:00:00', metadata: {}, session_id: 's', reply_id: 'r1', ...e })}\n\n`;
  return file('type.sse', event({ type: 'REPLY_START', name: 'a', role: 'assistant' }) +
    `data: ${JSON.stringify({ type: 'X\n::error::injected\r::add-mask::x\u001b[31mRED\u009b2J', reply_id: 'r1' })}\n\n` + event({ id: 'e3', type: 'REPLY_END' }));
};

describe('output that quotes the input stays inert', () => {
  it('validate writes no line the stream made, and no control character, in text and --github output', async () => {
    const hostile = hostileType();
    for (const extra of [[], ['--github']]) {
      const out = await cli('validate', hostile, ...extra);
      expect(out.code, extra.join(' ')).toBe(0); // one warning: as.unknown-event-type
      const lines = out.stdout.split('\n');
      // The only workflow commands are the annotations validate writes (one per diagnostic), none the stream wrote.
      expect(lines.filter((l) => l.startsWith('::'))).toEqual(extra.length ? [expect.stringMatching(/^::warning file=.*,title=replyscope as\.unknown-event-type::/)] : []);
      // eslint-disable-next-line no-control-regex
      expect(out.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(out.stdout).toContain('event 1 (X\\n::error::injected\\r::add-mask::x\\u001b[31mRED\\u009b2J)');
    }
  });

  it('an error message that quotes the input (the reply ids there are) is one line on stderr', async () => {
    const ndjson = file('ids.ndjson', `${JSON.stringify({ id: 'e1', created_at: '2026-01-01T00:00:00', metadata: {}, type: 'REPLY_START',
      reply_id: 'r\n::warning::fake', session_id: 's', name: 'a', role: 'assistant' })}\n`);
    const out = await cli('replay', ndjson, '--reply', 'nope');
    expect(out.code).toBe(2);
    expect(out.stderr).toBe('replyscope: no reply with id "nope" (its replies: r\\n::warning::fake)\n');
    // With --github the same message is an annotation, and still a single line.
    const bad = file('bad.ndjson', '{"a":1}\n{"type":"x\u001b[2J\n::error::fake"\n');
    const annotated = await cli('validate', bad, '--github');
    expect(annotated.code).toBe(2);
    expect(annotated.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(annotated.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(annotated.stderr).toContain('\\u001b[2J');
  });

  it('no command still prints the usage, on stderr, exit 2', async () => {
    const out = await cli();
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^usage: replyscope <command>/); // as it is, not "replyscope: usage: …"
    expect(out.stderr.split('\n').length).toBeGreaterThan(10);
  });
});
