// Loopback HTTP servers for e2e tests: 127.0.0.1, port 0, torn down without waiting on keep-alive sockets.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export interface TestServer {
  /** Origin without trailing slash, e.g. http://127.0.0.1:40123 */
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

/** Starts `handler` on 127.0.0.1:<free port>. Handler errors become a 500 (and are rethrown on close()). */
export async function startServer(handler: Handler): Promise<TestServer> {
  const errors: unknown[] = [];
  const server = http.createServer((req, res) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((err: unknown) => {
        errors.push(err);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (errors.length) throw errors[0];
    },
  };
}

/** Resolves when `write` can take more data (the socket drained) — the server-side view of backpressure. */
export function writeAndWait(res: http.ServerResponse, chunk: string | Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    const flushedAtOnce = res.write(chunk);
    if (flushedAtOnce) resolve(true);
    else res.once('drain', () => resolve(false));
  });
}

/** A promise you resolve from outside (to hold a stream open until the test says so). */
export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void; reject(err: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
