import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../../src/cli/commands.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { DIAGNOSTIC_DOCS } from '../../../src/core/diagnostics/catalog.ts';
import { CLI_DIAGNOSTIC_DOCS } from '../../../src/cli/input-cut.ts';
import { CONFORMANCE, captureOf, loadCases } from '../analysis/support.ts';
import { EvictionDigest } from '../../../src/core/analysis/eviction-digest.ts';
import type { ChunkRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { tempDir } from '../temp-dir.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');
const read = (p: string) => readFileSync(p);

async function conformance(dir: string, name: string): Promise<any> {
  const out = await runCli(['conformance', path.join(CONFORMANCE, dir, 'cases', `${name}.json`)], read);
  expect(out.exitCode).toBe(0);
  return JSON.parse(out.stdout);
}

describe('replyscope conformance: every published case', () => {
  for (const c of loadCases('agentscope')) {
    it(`agentscope/${c.name}`, async () => {
      const got = await conformance('agentscope', c.name);
      for (const key of ['initial', 'step_indices', 'steps', 'final', 'status']) expect(got[key], key).toEqual(c.expected[key]);
      expect(got.invalid.map((x: any) => x.index)).toEqual(c.expected.invalid.map((x: any) => x.index));
      expect(got.errors.map((x: any) => x.index)).toEqual(c.expected.errors.map((x: any) => x.index));
    });
  }
  for (const c of loadCases('pi')) {
    if (c.name === 'abort_before_request') continue; // not observable by a passive inspector (see the README there)
    it(`pi/${c.name}`, async () => {
      const got = await conformance('pi', c.name);
      expect(got.events).toEqual(c.expected.events);
      expect(got.resultSettled).toEqual(c.expected.resultSettled);
      if (c.name === 'malformed_json_frame') {
        // errorMessage is V8's JSON.parse wording: compare everything else.
        const strip = (m: any) => m && { ...m, errorMessage: typeof m.errorMessage };
        expect(got.steps.map(strip)).toEqual(c.expected.steps.map(strip));
        expect(strip(got.final)).toEqual(strip(c.expected.final));
      } else {
        expect(got.steps).toEqual(c.expected.steps);
        expect(got.final).toEqual(c.expected.final);
      }
    });
  }
});

describe('the replyscope binary', () => {
  it('runs a conformance case as a real process', async () => {
    const file = path.join(CONFORMANCE, 'agentscope', 'cases', 'text_plain.json');
    const { stdout } = await run(process.execPath, [BIN, 'conformance', file]);
    const expected = JSON.parse(readFileSync(path.join(CONFORMANCE, 'agentscope', 'expected', 'text_plain.json'), 'utf8'));
    expect(JSON.parse(stdout).final).toEqual(expected.final);
  });

  it('validate exits 1 on error diagnostics and prints them readably', async () => {
    const file = path.join(CONFORMANCE, 'agentscope', 'cases', 'delta_before_start.json');
    const err = await run(process.execPath, [BIN, 'validate', file]).then(() => null, (e) => e);
    expect(err?.code).toBe(1);
    expect(err.stdout).toMatch(/as\.delta-before-start/);
    // Counts read as English: "1 error", "2 warnings", "1 reply".
    expect(err.stdout).toMatch(/^\d+ errors?, \d+ warnings?, \d+ info$/m);
    expect(err.stdout).not.toMatch(/\b1 (errors|warnings|events|replies)\b/);
    // A conformance case is a file, not a request.
    expect(err.stdout).toMatch(/^file .*delta_before_start\.json — agentscope, /m);
  });

  it('validate names a HAR entry by its request and an imported body as a file', async () => {
    const dir = tempDir('rs-cli-');
    const delta = `data: ${JSON.stringify({ id: 'e1', created_at: '2026-11-29T09:30:00.200', metadata: {}, type: 'TEXT_BLOCK_DELTA', reply_id: 'r1', block_id: 'b1', delta: 'Hi' })}\n\n`;
    const har = path.join(dir, 'x.har');
    // No `_resourceType`: the entry is imported as such, with the request it records.
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [{
      startedDateTime: '2026-11-29T09:30:00.000Z', time: 10,
      request: { method: 'POST', url: 'https://api.example/stream', httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
      response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [{ name: 'content-type', value: 'text/event-stream' }], cookies: [],
        content: { size: delta.length, mimeType: 'text/event-stream', text: delta }, redirectURL: '', headersSize: -1, bodySize: -1 },
      cache: {}, timings: { send: 0, wait: 0, receive: 0 },
    }] } }));
    const sse = path.join(dir, 'body.sse');
    writeFileSync(sse, delta);
    const first = async (file: string) => (await run(process.execPath, [BIN, 'validate', file])).stdout.split('\n')[0];
    expect(await first(har)).toBe('POST https://api.example/stream — agentscope, 1 event, 1 reply');
    expect(await first(sse)).toBe(`file ${sse} — agentscope, 1 event, 1 reply`);
    // The import's note of entries that are no stream leads the report.
    const withPage = JSON.parse(readFileSync(har, 'utf8'));
    const entry = withPage.log.entries[0];
    withPage.log.entries.unshift({ ...entry, request: { ...entry.request, method: 'GET', url: 'https://app.example/' },
      response: { ...entry.response, headers: [{ name: 'content-type', value: 'text/html' }], content: { size: 3, mimeType: 'text/html', text: '<p>' } } });
    writeFileSync(har, JSON.stringify(withPage));
    const lines = (await run(process.execPath, [BIN, 'validate', har])).stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'note: 1 of 2 HAR entries are not streams (no text/event-stream, NDJSON, EventSource or WebSocket) and were skipped: GET https://app.example/ (text/html).',
      'POST https://api.example/stream — agentscope, 1 event, 1 reply',
    ]);
  });

  it('replay prints every reply of an SSE file with its final message', async () => {
    const dir = tempDir('rs-cli-');
    const file = path.join(dir, 'stream.sse');
    const ev = (type: string, extra: object) => `data: ${JSON.stringify({ type, id: `e-${type}`, created_at: '2026-01-01T00:00:00', reply_id: 'r1', ...extra })}\n\n`;
    writeFileSync(file, [
      ': heartbeat\n\n',
      ev('REPLY_START', { session_id: 's', name: 'Friday', role: 'assistant' }),
      ev('TEXT_BLOCK_START', { block_id: 'b1' }),
      ev('TEXT_BLOCK_DELTA', { block_id: 'b1', delta: 'Hello ' }),
      ev('TEXT_BLOCK_DELTA', { block_id: 'b1', delta: 'world' }),
      ev('TEXT_BLOCK_END', { block_id: 'b1' }),
      ev('REPLY_END', { session_id: 's' }),
    ].join(''));
    const { stdout, stderr } = await run(process.execPath, [BIN, 'replay', file, '--reply', 'r1']);
    const out = JSON.parse(stdout);
    expect(out[0].replies[0].final.content[0].text).toBe('Hello world');
    expect(out[0].replies[0].final.finished_reason).toBe('completed');
    expect(stderr).toBe('');
  });

  it('replay stamps blocks with the arrival time as Python writes it, or the event\'s created_at when there is none', async () => {
    const ev = (type: string, extra: object, at: string) => `data: ${JSON.stringify({ type, id: `e-${type}`, created_at: at, reply_id: 'r1', ...extra })}\n\n`;
    const body = ev('REPLY_START', { session_id: 's', name: 'Friday', role: 'assistant' }, '2026-05-04T10:11:12.000100') +
      ev('TEXT_BLOCK_START', { block_id: 'b1' }, '2026-05-04T10:11:12.345678') + ev('TEXT_BLOCK_DELTA', { block_id: 'b1', delta: 'Hi' }, '2026-05-04T10:11:12.400000');
    // A raw SSE body has no arrival times: the block was dated 1970-01-01T00:00:00 under a message of 2026.
    const raw = JSON.parse((await runCli(['replay', 'x.sse'], () => new TextEncoder().encode(body))).stdout);
    expect(raw[0].replies[0].final.content[0].created_at).toBe('2026-05-04T10:11:12.345678');
    // A capture log's arrival times are fractional milliseconds: six digits, as isoformat() (it wrote three).
    const text = (s: string) => JSON.stringify({ kind: 'chunk', conn: 'c', t: Date.UTC(2026, 4, 4, 10, 11, 13) + 0.25, bytes: Buffer.byteLength(s), text: s });
    const log = ['{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-05-04T10:11:13Z"}',
      '{"kind":"connection","id":"c","transport":"fetch","frameUrl":"","method":"GET","url":"https://a.test/s","requestHeaders":[],"startTime":1}',
      text(body)].join('\n');
    const logged = JSON.parse((await runCli(['replay', 'x.replyscope.ndjson'], () => new TextEncoder().encode(log))).stdout);
    expect(logged[0].replies[0].final.content[0].created_at).toBe('2026-05-04T10:11:13.000250');
  });

  it('replay says on stderr when its output rounds integers the reference keeps exact', async () => {
    const dir = tempDir('rs-cli-');
    const file = path.join(dir, 'stream.sse');
    const ev = (type: string, extra: string) => `data: {"type":"${type}","id":"e-${type}","created_at":"2026-01-01T00:00:00","reply_id":"r1"${extra}}\n\n`;
    writeFileSync(file, [
      ev('REPLY_START', ',"session_id":"s","name":"Friday","role":"assistant","metadata":{"trace":1234567890123456789}'),
      ev('REPLY_END', ',"session_id":"s"'),
    ].join(''));
    const { stdout, stderr } = await run(process.execPath, [BIN, 'replay', file]);
    expect(JSON.parse(stdout)[0].replies).toHaveLength(1);
    expect(stderr).toBe('replyscope: note: 1 event held integers beyond 2^53, which this output has as the nearest JavaScript number ' +
      '(a Python consumer keeps them exact); "replyscope validate FILE" lists them (stream.unsafe-integer)\n');
    const validated = await run(process.execPath, [BIN, 'validate', file]);
    expect(validated.stdout).toContain('stream.unsafe-integer');
    expect(validated.stdout).toContain('The integer 1234567890123456789 at metadata.trace is beyond 2^53');
  });

  it('validate --ignore and --fail-on decide what is reported and what fails the run', async () => {
    const file = path.join(CONFORMANCE, 'agentscope', 'cases', 'delta_before_start.json'); // 1 error, 2 warnings
    const v = (...extra: string[]) => runCli(['validate', file, ...extra], read);
    const plain = await v();
    expect(plain.exitCode).toBe(1);
    expect(plain.stdout).toMatch(/^1 error, 2 warnings, 0 info$/m);
    const noError = await v('--ignore', 'as.delta-before-start');
    expect(noError.exitCode).toBe(0);
    expect(noError.stdout).not.toContain('as.delta-before-start');
    expect(noError.stdout).toMatch(/^0 errors, 2 warnings, 0 info \(1 ignored\)$/m);
    expect((await v('--ignore', 'as.delta-before-start', '--fail-on', 'warning')).exitCode).toBe(1);
    // Repeated, comma-separated and PREFIX.* entries add up; --json leaves the ignored ones out too.
    const json = JSON.parse((await v('--ignore', 'as.unknown-block-id', '--ignore', ' ,as.delta-before-start', '--json')).stdout);
    expect(json).toEqual([]);
    const wildcard = await v('--ignore', 'as.*', '--fail-on', 'info');
    expect([wildcard.exitCode, wildcard.stdout.split('\n').at(-1)]).toEqual([0, '0 errors, 0 warnings, 0 info (3 ignored)']);
    expect((await v('--fail-on', 'never')).exitCode).toBe(0);
    expect((await v('--fail-on', 'error')).exitCode).toBe(1);
    // A typo is an error, not an ignore list that ignores nothing.
    await expect(v('--ignore', 'as.delta-before-strat')).rejects.toThrow(/unknown diagnostic code "as.delta-before-strat"/);
    await expect(v('--ignore', 'asx.*')).rejects.toThrow(/no diagnostic code starts with "asx."/);
    await expect(v('--fail-on', 'warnings')).rejects.toThrow(/--fail-on takes error, warning, info or never/);
    await expect(v('--fail-on', 'error', '--fail-on', 'info')).rejects.toThrow(/--fail-on given twice/);
  });

  it('validate --github adds one annotation per diagnostic kept, escaped as GitHub reads workflow commands', async () => {
    const dir = tempDir('rs-cli-');
    const file = path.join(dir, '50%,odd:name.sse'); // %, comma and colon: escaped differently in properties and data
    const delta = { id: 'e1', created_at: '2026-11-29T09:30:00.200', metadata: {}, type: 'TEXT_BLOCK_DELTA', reply_id: 'r1', block_id: 'b1', delta: 'Hi' };
    writeFileSync(file, `data: ${JSON.stringify(delta)}\n\n`);
    const out = await runCli(['validate', file, '--github'], read);
    const annotations = out.stdout.split('\n').filter((l) => l.startsWith('::'));
    const codes = out.stdout.split('\n').filter((l) => /^  (warning|error|info) /.test(l)).map((l) => l.trim().split(/\s+/)[1]);
    expect(annotations).toHaveLength(codes.length);
    expect(codes.length).toBeGreaterThan(0);
    const prop = file.replace(/%/g, '%25').replace(/:/g, '%3A').replace(/,/g, '%2C');
    for (const [i, a] of annotations.entries()) {
      expect(a).toMatch(new RegExp(`^::(error|warning|notice) file=${prop.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},line=1,title=replyscope ${codes[i]}::`));
      expect(a.slice(a.indexOf('::', 2) + 2)).toContain(`${file.replace(/%/g, '%25')}: event `);
    }
    // Ignored diagnostics get no annotation; stdin has no file to point at; JSON is one output only.
    const ignored = await runCli(['validate', file, '--github', '--ignore', codes.join(',')], read);
    expect(ignored.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([]);
    const piped = await runCli(['validate', '-', '--github'], () => readFileSync(file));
    // (Nor a line: GitHub shows a line only in a file.)
    expect(piped.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual(annotations.map((a) => a.replace(/ file=[^,]*,line=1,/, ' ').replace(`::${file.replace(/%/g, '%25')}: `, '::stdin: ')));
    await expect(runCli(['validate', file, '--github', '--json'], read)).rejects.toThrow(/choose one/);
  });

  it('codes lists every documented diagnostic code once, with its severity and title', async () => {
    const out = await runCli(['codes'], read);
    const rows = out.stdout.split('\n').map((l) => l.split(/\s{2,}/));
    // The core's codes, then the CLI's own (input.timeout: the panel reads no input with a timeout).
    const docs = [...DIAGNOSTIC_DOCS, ...CLI_DIAGNOSTIC_DOCS];
    expect(rows.map((r) => r[0])).toEqual(docs.map((d) => d.code));
    expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length);
    for (const [code, severity, title] of rows) {
      const doc = docs.find((d) => d.code === code)!;
      expect(doc.title).toBe(title);
      expect(severity).toBe(doc.alsoWarning ? `${doc.severity}/warning` : doc.severity); // a note is told at its own severity
    }
    expect(rows.find((r) => r[0] === 'capture.notice')?.[1]).toBe('info/warning');
    await expect(runCli(['codes', 'x.json'], read)).rejects.toThrow(/codes takes no FILE/);
  });

  it('replay --steps writes one NDJSON line per step as it goes; a reader that stops early ends it quietly', async () => {
    const dir = tempDir('rs-cli-');
    const file = path.join(dir, 'long.sse');
    const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
    // 3,000 deltas: every line holds the whole message so far (~9 MB of output in all).
    let body = ev({ type: 'REPLY_START', reply_id: 'r1', session_id: 's', name: 'Friday' }) + ev({ type: 'TEXT_BLOCK_START', reply_id: 'r1', block_id: 'b' });
    for (let i = 0; i < 3000; i++) body += ev({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r1', block_id: 'b', delta: `tok${i} ` });
    writeFileSync(file, body);
    const out = await runCli(['replay', file, '--steps'], read);
    const lines = [...(out.lines ?? [])];
    expect(out.stdout).toBe('');
    expect(lines).toHaveLength(3002);
    const last = JSON.parse(lines[3001]);
    expect(last).toMatchObject({ connection: expect.any(String), reply: 'r1', step: 3001, event: 3001 });
    expect(last.message.content[0].text).toBe(Array.from({ length: 3000 }, (_, i) => `tok${i} `).join(''));
    expect(JSON.parse(lines[1])).toMatchObject({ step: 1, message: { content: [{ type: 'text', text: '' }] } });
    await expect(runCli(['replay', file, '--reply', 'nope'], read)).rejects.toThrow('no reply with id "nope" (its replies: r1)');
    // Like `… | head -1`: the reader takes a little and closes the pipe.
    const child = execFile(process.execPath, [BIN, 'replay', file, '--steps'], { maxBuffer: 1 << 30 });
    const ended = new Promise<{ code: number | null; stderr: string }>((resolve) => {
      let stderr = '';
      child.stderr?.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    child.stdout?.once('data', () => child.stdout?.destroy());
    const got = await ended;
    expect(got.stderr).toBe('');
    expect(got.code).toBe(0);
  });

  it('help with any command is the usage on standard output; stray options, empty ignore lists and "--"', async () => {
    for (const args of [['--help'], ['validate', '--help'], ['replay', 'x.sse', '-h']]) {
      const out = await runCli(args, read);
      expect(out, args.join(' ')).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^usage: replyscope <command>/) });
    }
    const file = path.join(CONFORMANCE, 'agentscope', 'cases', 'text_plain.json');
    await expect(runCli(['validate', '-x', file], read)).rejects.toThrow('unknown option -x for validate (--help for usage)');
    for (const list of ['', ',', ' , ']) await expect(runCli(['validate', file, '--ignore', list], read)).rejects.toThrow('--ignore: no codes given');
    // After "--", an argument that looks like an option is a FILE (and --help is a name, not a request).
    const seen: string[] = [];
    await expect(runCli(['validate', '--', '--help'], (p) => (seen.push(p), read(file)))).resolves.toMatchObject({ exitCode: 0 });
    expect(seen).toEqual(['--help']);
  });

  it('a frame the client drops is named by its frame (it has no event of its own), with the event after it', async () => {
    const dir = tempDir('rs-cli-');
    const file = path.join(dir, 'nospace.sse');
    const ev = (o: Record<string, unknown>, sep = ' ') => `data:${sep}${JSON.stringify(o)}\n\n`;
    writeFileSync(file, ev({ type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'a' }) + ev({ type: 'TEXT_BLOCK_START', reply_id: 'r', block_id: 'b' }) +
      ev({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: 'x' }, '') + ev({ type: 'TEXT_BLOCK_END', reply_id: 'r', block_id: 'b' }));
    const text = await runCli(['validate', file], read);
    expect(text.stdout).toMatch(/sse\.client-drops-frame +frame 2, before event 2 \(TEXT_BLOCK_END\), line 5: /);
    const json = JSON.parse((await runCli(['validate', file, '--json'], read)).stdout);
    expect(json.find((d: { code: string }) => d.code === 'sse.client-drops-frame')).toMatchObject({ index: 2, frame: 2 });
  });

  it('"-" reads standard input, named stdin', async () => {
    const file = path.join(CONFORMANCE, 'agentscope', 'cases', 'delta_before_start.json');
    const child = execFile(process.execPath, [BIN, 'validate', '-']);
    const out = new Promise<{ code: number | null; stdout: string }>((resolve) => {
      let stdout = '';
      child.stdout?.on('data', (d) => (stdout += d));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    child.stdin?.end(readFileSync(file));
    const got = await out;
    expect(got.code).toBe(1);
    expect(got.stdout.split('\n')[0]).toBe('file stdin — agentscope, 7 events, 1 reply');
    expect(got.stdout).toContain(`as.delta-before-start`);
  });

  it('a conformance case with neither "client" nor "reply" says so, not that an AgentScope reply is missing', async () => {
    const piCaseWithoutClient = JSON.stringify({ events: [{ type: 'start' }, { type: 'done', reason: 'stop' }] });
    const out = await runCli(['conformance', 'case.json'], () => new TextEncoder().encode(piCaseWithoutClient)).then(() => null, (e: Error) => e.message);
    expect(out).toContain('neither "client" (a pi case');
    expect(out).not.toContain('case.reply');
  });

  it('bad input gets one clear line and no stack trace', async () => {
    const dir = tempDir('rs-cli-');
    const bad = path.join(dir, 'bad.txt');
    writeFileSync(bad, '\u0000\u0001 not a stream');
    for (const args of [['validate', bad], ['replay', path.join(dir, 'missing.json')], ['frobnicate', bad], ['conformance', bad], ['validate', bad, '--ignore', 'nope']]) {
      const err = await run(process.execPath, [BIN, ...args]).then(() => null, (e) => e);
      expect(err, args.join(' ')).not.toBeNull();
      expect(err.code).toBe(2);
      expect(err.stderr.trim().split('\n')).toHaveLength(1);
      expect(err.stderr).toMatch(/^replyscope: /);
      expect(err.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('a capture log cut short is read up to the cut and warns on the connection the cut may have left unfinished', async () => {
    const dir = tempDir('rs-cli-');
    const header = '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-01-01T00:00:00Z"}';
    const conn = '{"kind":"connection","id":"c","transport":"fetch","frameUrl":"","method":"GET","url":"https://a.test/stream","requestHeaders":[],"startTime":1}';
    const frame = (o: unknown) => JSON.stringify({ kind: 'chunk', conn: 'c', t: 2, bytes: Buffer.byteLength(`data: ${JSON.stringify(o)}\n\n`), text: `data: ${JSON.stringify(o)}\n\n` });
    const start = frame({ id: 'e1', created_at: '2026-03-01T09:00:00', metadata: {}, type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'a', role: 'assistant' });
    const cut = path.join(dir, 'cut.replyscope.ndjson');
    writeFileSync(cut, `${header}\n${conn}\n${start}\n${start.slice(0, 30)}`);
    const err = await run(process.execPath, [BIN, 'validate', '--fail-on', 'warning', cut]).then(() => null, (e) => e);
    expect(err?.code).toBe(1);
    expect(err.stdout).toMatch(/^GET https:\/\/a\.test\/stream — agentscope, 1 event, 1 reply$/m);
    expect(err.stdout).toContain('The capture log ends in the middle of line 4 (30 characters, not a whole record): the file was cut short.');
    // Every connection ended before the cut: the note is the file's, not a connection's — and --json has it too
    // (it printed "[]").
    const ended = path.join(dir, 'ended.replyscope.ndjson');
    writeFileSync(ended, `${header}\n${conn}\n${start}\n{"kind":"end","conn":"c","t":3,"state":"complete"}\n${start.slice(0, 30)}`);
    const json = JSON.parse((await runCli(['validate', '--json', ended], read)).stdout) as { connection: string | null; message: string }[];
    expect(json.find((d) => d.connection === null)?.message).toMatch(/^The capture log ends in the middle of line 5 .*the file was cut short/);
  });

  it('with --github, input it cannot read is an error annotation on its line (stdout said nothing), still exit 2', async () => {
    const dir = tempDir('rs-cli-');
    const log = path.join(dir, 'bad.replyscope.ndjson');
    writeFileSync(log, '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"x"}\n{"kind":"chunk","conn":"nope","t":1,"bytes":1,"text":"x"}\n');
    const err = await run(process.execPath, [BIN, 'validate', '--github', log]).then(() => null, (e) => e);
    expect(err?.code).toBe(2);
    expect(err.stdout.trim()).toBe(`::error file=${log},line=2,title=replyscope input::${log}: capture log line 2: chunk record for connection "nope", which no earlier line declares`);
    expect(err.stderr).toMatch(/^replyscope: .*capture log line 2: chunk record for connection "nope"/);
  });

  it('a CI user\'s review: --github names a missing file, --opt=value, help and --version on stdout, the size limit', async () => {
    const missing = await run(process.execPath, [BIN, 'validate', '--github', '/nope/capture.replyscope.ndjson']).then(() => null, (e) => e);
    expect(missing?.code).toBe(2);
    expect(missing.stdout.trim()).toBe('::error file=/nope/capture.replyscope.ndjson,title=replyscope input::no such file: /nope/capture.replyscope.ndjson');
    const ndjson = '{"type":"start"}\n{"type":"text_start","contentIndex":0}\n\n{"type": "text_delta", oops\n';
    const bad = await runCli(['validate', '--github', 'bad.ndjson'], () => new TextEncoder().encode(ndjson));
    expect(bad.stdout).toMatch(/^::error file=bad\.ndjson,line=4,title=replyscope input::bad\.ndjson: line 4: expected one JSON event per line/);
    const json = await runCli(['validate', '--github', 'bad.json'], () => new TextEncoder().encode('[\n {"type": "start"}\n {"type": "x"}\n]'));
    expect(json.stdout).toMatch(/^::error file=bad\.json,line=3,title=replyscope input::/);
    const file = path.join(CONFORMANCE, 'agentscope', 'cases', 'delta_before_start.json'); // 1 error, 2 warnings
    expect((await runCli(['validate', file, '--fail-on=never'], read)).exitCode).toBe(0);
    expect((await runCli(['validate', '--fail-on=error', file], read)).exitCode).toBe(1);
    await expect(runCli(['validate', '--json=yes', file], read)).rejects.toThrow('option --json takes no value');
    const help = await run(process.execPath, [BIN, 'help']);
    expect(help.stdout).toMatch(/^usage: replyscope <command>/);
    expect(help.stdout).toMatch(/exit codes: 0 ok; 1 .*; 2 bad input or usage; 3 /);
    expect(help.stderr).toBe('');
    const version = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')).version;
    expect((await run(process.execPath, [BIN, '--version'])).stdout.trim()).toBe(`replyscope ${version}`);
    // Asked after a command too, as --help is; after "--" it is a FILE's name.
    expect(await runCli(['validate', 'x.sse', '--version'], read, version)).toEqual({ stdout: `replyscope ${version}`, exitCode: 0 });
    await expect(runCli(['validate', '--', '--version'], () => { throw new CliError('no such file: --version', 2); }, version)).rejects.toThrow('no such file: --version');
    // Past what one JavaScript string holds: bad input, said as such (it was "internal error", exit 3). Only the
    // length is read before the refusal, so a stand-in of that length does.
    const huge = { length: 600 * 2 ** 20 } as Uint8Array;
    await expect(runCli(['validate', 'huge.sse'], () => huge)).rejects.toThrow(/^huge\.sse is 600 MiB: more than one input can hold \(512 MiB/);
  });

  it('replay --reply lists only the connections that have it; a pi body without its request says what it lacks', async () => {
    const c = loadCases('pi').find((x) => x.name === 'done_toolUse')!;
    const body = Array.isArray(c.input.raw) ? c.input.raw.join('') : c.input.events.map((e: unknown) => `data: ${JSON.stringify(e)}\n\n`).join('');
    const out = await runCli(['replay', 'pi.sse'], () => new TextEncoder().encode(body));
    expect(out.stderr).toMatch(/^note: a pi stream without the request that started it: streamProxy takes the message's api, provider and model from the request/);
    const withRequest = await runCli(['replay', 'case.json'], () => new TextEncoder().encode(JSON.stringify(c.input)));
    expect(withRequest.stderr).toBeUndefined();
    const log = new TextEncoder().encode(writeCaptureLog(sampleCapture()));
    const all = JSON.parse((await runCli(['replay', 'sample.replyscope.ndjson'], () => log)).stdout) as { replies: { id: string }[] }[];
    const id = all.find((x) => x.replies.length > 0)!.replies[0].id;
    const one = JSON.parse((await runCli(['replay', 'sample.replyscope.ndjson', '--reply', id], () => log)).stdout) as { replies: { id: string }[] }[];
    expect(all.length).toBeGreaterThan(one.length);
    expect(one.every((x) => x.replies.some((r) => r.id === id))).toBe(true);
  });

  it('replay writes final and a step\'s message as null when the client has no message, never leaving the key out', async () => {
    const body = new TextEncoder().encode('data: {"type":"start","partial":null}\n\n');
    const [conn] = JSON.parse((await runCli(['replay', 'pi.sse'], () => body)).stdout) as { replies: Record<string, unknown>[] }[];
    expect(conn.replies[0]).toEqual({ id: 'import:1#0', events: 1, final: null });
    const step = JSON.parse([...((await runCli(['replay', 'pi.sse', '--steps'], () => body)).lines ?? [])][0]) as Record<string, unknown>;
    expect(step).toEqual({ connection: 'import:1', reply: 'import:1#0', step: 0, event: 0, message: null });
  });

  it('an unknown --reply names the id it starts (as the reply list cuts it), and counts the ids past the ten it lists', async () => {
    const file = path.resolve(import.meta.dirname, '../../../examples/demo.replyscope.ndjson');
    const ids = (JSON.parse((await runCli(['replay', file], read)).stdout) as { replies: { id: string }[] }[]).flatMap((c) => c.replies.map((r) => r.id));
    expect(ids.length).toBeGreaterThan(10);
    const reply = (id: string) => runCli(['replay', file, '--reply', id], read).then(() => undefined, (e: Error & { exitCode?: number }) => e);
    const cut = await reply(`${ids[7].slice(0, 9)}…`);
    expect(cut?.exitCode).toBe(2);
    expect(cut?.message).toBe(`no reply with id "${ids[7].slice(0, 9)}…" — did you mean ${ids[7]}? (--reply takes the whole id)`);
    // The ids past the tenth (here the pi replies) were left as "…": now counted, with where to find them.
    expect((await reply('nope'))?.message).toBe(`no reply with id "nope" (its replies: ${ids.slice(0, 10).join(', ')} and ${ids.length - 10} more (replay without --reply lists them all))`);
    const pi = ids.filter((id) => id.startsWith('demo:'));
    expect(pi.length).toBeGreaterThan(1);
    expect((await reply('demo:'))?.message).toBe(`no reply with id "demo:" (its replies that start with "demo:": ${pi.join(', ')})`);
  });

  it('replay of a pi stream that ended without done or error says its result() never settles', async () => {
    const c = loadCases('pi').find((x) => x.name === 'done_toolUse')!;
    const events = (c.input.events as { type: string }[]).filter((e) => e.type !== 'done' && e.type !== 'error');
    const cut = await runCli(['replay', 'case.json'], () => new TextEncoder().encode(JSON.stringify({ ...c.input, events })));
    expect(cut.stderr).toMatch(/^note: 1 pi reply ended without done or error: the client's result\(\) never settles/);
    const whole = await runCli(['replay', 'case.json'], () => new TextEncoder().encode(JSON.stringify(c.input)));
    expect(whole.stderr).toBeUndefined();
  });

  it('the end of the body and a frame past the last event are told "after" that event, not "before" it', async () => {
    const ev = (o: Record<string, unknown>, sep = ' ') => `data:${sep}${JSON.stringify(o)}\n\n`;
    const body = ev({ type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'a' }) + ev({ type: 'TEXT_BLOCK_START', reply_id: 'r', block_id: 'b' }) +
      ev({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: 'x' }, '');
    const dropped = (await runCli(['validate', 'x.sse'], () => new TextEncoder().encode(body))).stdout;
    expect(dropped).toMatch(/sse\.client-drops-frame +frame 2, after event 1 \(TEXT_BLOCK_START\), line 5: /);
    // Bare CR line ends: the SSE spec reads frames, the client none — not "the input holds no events" beside 2 errors.
    const cr = await runCli(['validate', 'cr.sse'], () => new TextEncoder().encode('data: {"type":"start"}\r\rdata: {"type":"text_start","contentIndex":0}\r\r'));
    expect(cr.stdout).toMatch(/^note: the client reads no events in it, where the SSE spec reads 2 data frames \(see the diagnostics\)$/m);
    expect(cr.stdout).toContain("pi-agent-core's streamProxy splits on");
    const cut = (await runCli(['validate', 'x.sse'], () => new TextEncoder().encode(body.slice(0, -3)))).stdout;
    expect(cut).toMatch(/the end of the body, after event 1 \(TEXT_BLOCK_START\), line 5: /);
  });

  it('replay of a capture whose head was evicted marks the replies that continue the digest, and says what that means', async () => {
    const ev = (o: object) => `data: ${JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', reply_id: 'r', ...o })}\n\n`;
    const pieces = [ev({ type: 'REPLY_START', session_id: 's', name: 'n' }) + ev({ type: 'TEXT_BLOCK_START', block_id: 'b' }) + ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'Hello ' }),
      ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'world' }) + ev({ type: 'TEXT_BLOCK_END', block_id: 'b' }) + ev({ type: 'REPLY_END', session_id: 's' })];
    const records = captureOf(pieces.map((p) => new TextEncoder().encode(p)));
    const [conn, first, ...rest] = records;
    const digest = new EvictionDigest(conn as ConnectionRecord);
    digest.push(first as ChunkRecord);
    const evicted = { kind: 'evicted' as const, conn: 'c1', t: 1, chunks: 1, messages: 0, bytes: (first as ChunkRecord).bytes, derived: digest.derived() };
    const log = writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: [conn, evicted, ...rest] });
    const out = await runCli(['replay', 'cut.replyscope.ndjson'], () => new TextEncoder().encode(log));
    const reply = JSON.parse(out.stdout)[0].replies[0];
    expect(reply).toMatchObject({ id: 'r', continuesEviction: true, events: 3 });
    expect(reply.final.content[0].text).toBe('Hello world');
    expect(out.stderr).toMatch(/^note: 1 reply began before the memory cap evicted its head \("continuesEviction"\)/);
    // What the panel's Clear dropped, the stream still open: said as Clear's (it said "the memory cap" of a capture
    // nowhere near its cap), and as both when the cap dropped some too.
    const said = async (ev: typeof evicted & { cleared: number }) => {
      const cut = writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: [conn, ev, ...rest] });
      return (await runCli(['replay', 'cut.replyscope.ndjson'], () => new TextEncoder().encode(cut))).stderr;
    };
    expect(await said({ ...evicted, cleared: 1 })).toMatch(/^note: 1 reply began before Clear \(the stream still open\) evicted its head \("continuesEviction"\)/);
    expect(await said({ ...evicted, chunks: 2, cleared: 1 })).toMatch(/^note: 1 reply began before the memory cap and Clear evicted its head/);
  });

  it('the example capture the README points to reads, and is the demo\'s (its broken scenarios are the errors)', async () => {
    const file = path.resolve(import.meta.dirname, '../../../examples/demo.replyscope.ndjson');
    const out = await runCli(['validate', file], read);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toMatch(/^\d+ errors, \d+ warnings, \d+ info$/m);
    for (const code of ['as.delta-before-start', 'pi.content-kind-mismatch']) expect(out.stdout).toContain(code);
    const replies = JSON.parse((await runCli(['replay', file], read)).stdout) as { replies: unknown[] }[];
    expect(replies.flatMap((c) => c.replies).length).toBeGreaterThan(5);
  });
});
