// A minimal static file server on 127.0.0.1 (port 0) for the built viewer, used by the viewer e2e tests and the
// screenshot script. `extra` serves in-memory files (e.g. a sample capture for `?load=`).
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.ndjson': 'application/x-ndjson',
  '.har': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export async function serveStatic(root: string, extra: Record<string, string> = {}): Promise<StaticServer> {
  const server: Server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (pathname in extra) {
      res.writeHead(200, { 'content-type': TYPES[path.extname(pathname)] ?? 'text/plain; charset=utf-8' });
      res.end(extra[pathname]);
      return;
    }
    const file = path.join(root, path.normalize(pathname === '/' ? '/index.html' : pathname));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${pathname}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // Chromium keeps sockets alive; close() alone would wait for them
        server.close(() => resolve());
      }),
  };
}
