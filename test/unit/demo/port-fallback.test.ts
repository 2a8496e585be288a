// The busy-port rule shared by `npm run demo`, `npm run viewer` and `npm start`, against real sockets on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOrFallback, portWasAsked } from '../../../src/demo/port-fallback.ts';

const open: Server[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await new Promise((r) => s.close(r));
});

/** Listens a fresh server on `port` of 127.0.0.1; resolves with the port it got. */
function listen(port: number): Promise<number> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      open.push(server);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

describe('portWasAsked', () => {
  it('counts --port N, --port=N and PORT as asking, nothing else', () => {
    expect(portWasAsked(['--port', '9000'], {})).toBe(true);
    expect(portWasAsked(['--fast', '--port=9000'], {})).toBe(true);
    expect(portWasAsked([], { PORT: '9000' })).toBe(true);
    expect(portWasAsked(['--fast', 'capture.har'], {})).toBe(false);
    expect(portWasAsked(['--portable'], {})).toBe(false);
  });
});

describe('listenOrFallback', () => {
  it('takes a free port when the default one is busy, and says so', async () => {
    const busy = await listen(0);
    const said: string[] = [];
    const got = await listenOrFallback(busy, false, listen, (l) => said.push(l));
    expect(got).not.toBe(busy);
    expect(got).toBeGreaterThan(0);
    expect(said).toEqual([`Port ${busy} is busy; using a free one.`]);
  });

  it('fails on a busy port the user asked for', async () => {
    const busy = await listen(0);
    const said: string[] = [];
    await expect(listenOrFallback(busy, true, listen, (l) => said.push(l))).rejects.toMatchObject({
      code: 'EADDRINUSE',
      // What to do, not "listen EADDRINUSE: address already in use 127.0.0.1:N".
      message: `port ${busy} is taken (another demo or viewer still running?) — it was asked for with --port or PORT, so it is not moved: name another, or leave it out to take a free one`,
    });
    expect(said).toEqual([]);
  });

  it('listens on a free default port as asked, and passes other failures through', async () => {
    const free = await listen(0);
    await new Promise((r) => open.pop()?.close(r));
    expect(await listenOrFallback(free, false, listen)).toBe(free);
    const denied = Object.assign(new Error('listen EACCES'), { code: 'EACCES' });
    await expect(listenOrFallback(80, false, () => Promise.reject(denied))).rejects.toBe(denied);
  });
});
