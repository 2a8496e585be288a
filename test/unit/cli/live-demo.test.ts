import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { startDemoServer, type DemoServer } from '../../../src/demo/server.ts';

// The README's pipe, for real: the demo backend's pi proxy stream, fetched and piped into `replyscope validate -`
// as curl does, read to its end by the CLI process.
const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');
const REQUEST = { model: { id: 'demo', api: 'openai-completions', provider: 'demo' }, context: { messages: [{ role: 'user', content: 'hello' }] } };

let server: DemoServer;
beforeAll(async () => {
  server = await startDemoServer({ fast: true });
});
afterAll(() => server.close());

/** `fetch … | replyscope ARGS -`: the response body streamed into the CLI's standard input. */
async function pipe(headers: Record<string, string>, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const res = await fetch(`${server.url}/api/stream`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(REQUEST) });
  const child = spawn(process.execPath, [BIN, ...args, '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  Readable.fromWeb(res.body as import('node:stream/web').ReadableStream).pipe(child.stdin);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

describe('a live stream piped into validate -', () => {
  it('the demo\'s pi stream passes --fail-on warning', async () => {
    const out = await pipe({ authorization: 'Bearer demo' }, 'validate', '--fail-on', 'warning');
    expect([out.code, out.stdout.split('\n')[0]]).toEqual([0, 'file stdin — pi-proxy, 22 events, 1 reply']);
  });

  it('the server\'s error answer is told as one, with what it said (it was "an object with keys error")', async () => {
    const out = await pipe({}, 'validate');
    expect(out.code).toBe(2);
    expect(out.stderr).toBe('replyscope: stdin: expected a JSON array of events, {"events": [...]} or a HAR {"log": ...}; ' +
      'found an object with keys error — an error answer? {"error":"missing or malformed Bearer token"}\n');
  });
});
