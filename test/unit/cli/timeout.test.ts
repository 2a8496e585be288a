import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { runCli } from '../../../src/cli/commands.ts';
import { readInput } from '../../../src/cli/read-input.ts';
import { useTempDir } from '../temp-dir.ts';

// --timeout: a stream that never ends no longer hangs the CLI. Real processes: an agent server on 127.0.0.1 that never
// ends its response, fetched by a child process whose output is piped into the CLI — as `curl -N … | replyscope …`.
const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');
const ev = (o: object) => `data: ${JSON.stringify(o)}\n\n`;
/** A pi proxy stream that stops mid-reply, and mid-line: the agent hung. */
const HUNG = ev({ type: 'start' }) + ev({ type: 'text_start', contentIndex: 0 }) + ev({ type: 'text_delta', contentIndex: 0, delta: 'Hel' }) + 'data: {"type":"text_del';
/** `curl -sN URL`: the response body on standard output, as it arrives. */
const FETCH = 'const r = await fetch(process.argv[1]); for await (const c of r.body) process.stdout.write(c);';

let server: http.Server;
let url: string;
const dir = useTempDir('rs-timeout-');
beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(HUNG); // and never ends it
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`;
});
afterAll(async () => {
  server.closeAllConnections(); // the fetchers' responses end: they exit
  await new Promise((resolve) => server.close(resolve));
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function collect(child: ReturnType<typeof spawn>): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d));
  child.stderr?.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * `fetch URL | replyscope ARGS -`, the fetcher a real process whose standard output is the CLI's standard input. (By
 * process substitution: bash waits for the CLI alone, as the fetcher, like curl, waits on a stream that never ends.)
 */
function piped(...args: string[]): Promise<Run> {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const fetcher = `${q(process.execPath)} --input-type=module -e ${q(FETCH)} ${q(url)}`;
  // (The fetcher's stderr not ours: the CLI's output ends when the CLI does, not when the fetcher does.)
  return collect(spawn('bash', ['-c', `exec ${[process.execPath, BIN, ...args, '-'].map(q).join(' ')} < <(${fetcher} 2>/dev/null)`]));
}

describe('--timeout on a live stream piped in', () => {
  it('cuts a stream that never ends, reports what arrived as cut — not as ended by the server — and exits 4', async () => {
    const out = await piped('validate', '--timeout', '1s');
    expect(out.code).toBe(4);
    const lines = out.stdout.split('\n');
    expect(lines[0]).toMatch(/^note \(error\): the input was cut by --timeout 1s before it ended: 1\d\d bytes arrived, none in the last \d\.\d s\. What arrived is checked, not how the stream still open ends /);
    expect(lines[0]).toContain('Its last line, unfinished, is left unread.');
    expect(lines[1]).toBe('file stdin — pi-proxy, 3 events, 1 reply');
    // The stream had not ended: no "ended without done/error", no "ends mid-line".
    expect(out.stdout).not.toMatch(/pi\.no-terminal|unterminated|sse\./);
    expect(lines.slice(2, 4)).toEqual(['1 error, 0 warnings, 0 info', '  input.timeout: The input was cut by --timeout']);
    expect(out.stderr).toBe('');
  });

  it('a stream not meant to end is checked for a while with --ignore input.timeout (exit 0); replay says what it prints', async () => {
    const [ignored, json, replay] = await Promise.all([
      piped('validate', '--timeout=1', '--ignore', 'input.timeout', '--fail-on', 'warning'),
      piped('validate', '--timeout', '1000ms', '--json'),
      piped('replay', '--timeout', '1s'),
    ]);
    expect([ignored.code, ignored.stdout.split('\n')]).toEqual([0, ['file stdin — pi-proxy, 3 events, 1 reply', '0 errors, 0 warnings, 0 info (1 ignored)', '']]);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toEqual([{ file: '-', connection: null, url: null, code: 'input.timeout', severity: 'error', index: 0, message: expect.stringMatching(/^the input was cut by --timeout 1000ms before it ended/) }]);
    expect(replay.code).toBe(4);
    expect(JSON.parse(replay.stdout)[0].replies[0].final.content).toEqual([{ type: 'text', text: 'Hel' }]);
    expect(replay.stderr).toMatch(/^replyscope: note: the input was cut by --timeout 1s before it ended: .* The replies are printed as they stood then: those of the stream still open had not ended/);
    expect(replay.stderr).not.toContain('never settles'); // (that is said of a stream that ended without done)
  });
});

describe('--timeout on a named pipe', () => {
  it('no writer ever opens it: "nothing arrived", exit 4 — and the process ends (a blocked open kept it alive)', async () => {
    const fifo = path.join(dir(), 'nobody.fifo');
    await collect(spawn('mkfifo', [fifo]));
    const out = await collect(spawn(process.execPath, [BIN, 'validate', '--timeout', '0.5', '--github', fifo]));
    expect(out).toEqual({ code: 4, stdout: `::error file=${fifo},title=replyscope input::nothing arrived on ${fifo} within --timeout 0.5s\n`,
      stderr: `replyscope: nothing arrived on ${fifo} within --timeout 0.5s\n` });
  });

  it('a live capture log whose writer goes quiet: read up to its last whole record, its open connection not told as ended', async () => {
    const fifo = path.join(dir(), 'live.fifo');
    await collect(spawn('mkfifo', [fifo]));
    const header = '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-01-01T00:00:00Z"}';
    const conn = '{"kind":"connection","id":"c","transport":"fetch","frameUrl":"","method":"GET","url":"https://a.test/s","requestHeaders":[],"startTime":1}';
    const start = `data: ${JSON.stringify({ id: 'e1', created_at: '2026-03-01T09:00:00', metadata: {}, type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'a', role: 'assistant' })}\n\n`;
    const chunk = JSON.stringify({ kind: 'chunk', conn: 'c', t: 2, bytes: start.length, text: start });
    const child = spawn(process.execPath, [BIN, 'validate', '--timeout', '1s', '--fail-on', 'warning', fifo]);
    const done = collect(child);
    const writer = await open(fifo, 'w'); // opens once the CLI has opened its end
    await writer.write(`${header}\n${conn}\n${chunk}\n${chunk.slice(0, 30)}`);
    const out = await done;
    await writer.close();
    expect(out.code).toBe(4);
    expect(out.stdout).toMatch(/^note \(error\): the input was cut by --timeout 1s before it ended: [\d,]+ bytes arrived/);
    expect(out.stdout).toContain('\nGET https://a.test/s — agentscope, 1 event, 1 reply\n');
    // Not "the file was cut short" (a warning that failed --fail-on warning: exit 1), nor "reply never ended".
    expect(out.stdout).not.toMatch(/cut short|as\.reply-not-ended|capture\.notice/);
  });

  it('a stream past the size limit is refused as it arrives, not after it was read whole', async () => {
    const fifo = path.join(dir(), 'big.fifo');
    await collect(spawn('mkfifo', [fifo]));
    const reading = readInput(fifo, { maxBytes: 1000 });
    const writer = await open(fifo, 'w');
    const result = reading.then(() => 'read', (e: Error) => e.message);
    await writer.write(Buffer.alloc(4000, 'a'));
    expect(await result).toBe(`${fifo} holds more than 1000 bytes, the most one input can hold (the longest string JavaScript makes); split it — a capture log by connection (the header line, then whole connections' lines, in each part), an SSE body at a blank line`);
    await writer.close();
  });
});

describe('--timeout values and what a cut input does to each command', () => {
  const cut = (text: string) => () => ({ bytes: new TextEncoder().encode(text), cut: { timeout: { ms: 30_000, text: '30s' }, lastDataMs: 1000 } });

  it('a bad duration is a usage error naming the option, before anything is read', async () => {
    const never = () => {
      throw new Error('no file should be read');
    };
    for (const v of ['abc', '30x', '1d', '-5', '']) {
      await expect(runCli(['validate', '--timeout', v, 'x.sse'], never), v).rejects.toThrow(`--timeout takes a duration: seconds (30) or a number with a unit (500ms, 30s, 2m, 1h); got "${v}"`);
    }
    await expect(runCli(['replay', '--timeout', '0s', 'x.sse'], never)).rejects.toThrow('--timeout must be longer than 0 (got "0s")');
    await expect(runCli(['validate', '--timeout', '600h', 'x.sse'], never)).rejects.toThrow('--timeout is at most 24 days (got "600h")');
    await expect(runCli(['validate', '--timeout', 'x.sse'], never)).rejects.toThrow('validate: missing FILE (--timeout took "x.sse" as its value;');
    await expect(runCli(['validate', '--timeout', '30'], never)).rejects.toThrow(/^validate: missing FILE \(--help for usage\)$/);
    await expect(runCli(['codes', '--timeout', '30'], never)).rejects.toThrow('unknown option --timeout for codes');
    const seen: unknown[] = [];
    await runCli(['validate', '--timeout=2m', 'x.sse'], (_p, timeout) => (seen.push(timeout), new TextEncoder().encode(ev({ type: 'start' }))));
    expect(seen).toEqual([{ ms: 120_000, text: '2m' }]);
  });

  it('what arrived fails the run first (1); an NDJSON line cut mid-event is left unread, not bad input', async () => {
    const ndjson = '{"type":"start"}\n{"type":"text_delta","contentIndex":3,"delta":"x"}\n{"type":"text_del';
    const failed = await runCli(['validate', 'x.ndjson', '--timeout', '30s'], cut(ndjson));
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout).toContain('pi.delta-on-missing-index');
    expect(failed.stdout).not.toContain('not JSON');
    expect((await runCli(['validate', 'x.ndjson', '--ignore', 'pi.*'], cut(ndjson))).exitCode).toBe(4);
    expect((await runCli(['validate', 'x.ndjson', '--fail-on', 'never'], cut(ndjson))).exitCode).toBe(4);
    // A JSON document cut in the middle cannot be read: the cut is said to be why, with its own exit code.
    await expect(runCli(['validate', 'x.json'], cut('[{"type":"start"},'))).rejects.toMatchObject({ exitCode: 4,
      message: expect.stringMatching(/^x\.json: not valid JSON: .* — the input was cut by --timeout 30s before it ended \(18 bytes arrived, none in the last 29\.0 s\)$/) });
    // A whole case whose writer kept the pipe open is run; the exit code still says the input did not end.
    const conformance = await runCli(['conformance', 'case.json'], cut(JSON.stringify({ reply: { id: 'r', name: 'a' }, events: [] })));
    expect([conformance.exitCode, conformance.stderr]).toEqual([4, 'note: the input was cut by --timeout 30s before it ended; the case was read whole']);
  });
});
