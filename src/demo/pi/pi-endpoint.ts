// POST /api/stream — a pi proxy server endpoint as pi-agent-core's `streamProxy` expects it: JSON request
// `{model, context, options}` with a Bearer token, answered by an SSE body of compact `data: <json>\n\n` frames
// (one write per frame); errors before streaming are JSON `{error}` with a non-2xx status.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { piScenarioFor } from './pi-scenarios.ts';

export interface PiEndpointOptions {
  speed: number;
}

export async function handlePiStream(req: IncomingMessage, res: ServerResponse, rawBody: string, opts: PiEndpointOptions): Promise<void> {
  const auth = req.headers.authorization ?? '';
  if (!/^Bearer \S+/.test(auth)) return jsonError(res, 401, 'missing or malformed Bearer token');
  let body: { model?: unknown; context?: unknown; options?: unknown };
  try {
    body = JSON.parse(rawBody) as typeof body;
  } catch (err) {
    return jsonError(res, 400, `request body is not JSON: ${(err as Error).message}`);
  }
  const model = body.model as { api?: unknown; provider?: unknown; id?: unknown } | undefined;
  if (!model || typeof model.id !== 'string' || typeof model.api !== 'string' || typeof model.provider !== 'string') {
    return jsonError(res, 400, 'body.model must be a pi-ai Model with id, api and provider');
  }
  if (typeof body.context !== 'object' || body.context === null) return jsonError(res, 400, 'body.context is required');

  const scenario = piScenarioFor(body as Parameters<typeof piScenarioFor>[0]);
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  let closed = false;
  res.on('close', () => (closed = true));
  for (const { event, pause } of scenario.frames) {
    await (opts.speed > 0 ? sleep(pause * opts.speed) : turn());
    if (closed) return; // the client aborted (streamProxy cancels its reader)
    res.write(`data: ${JSON.stringify(event)}\n\n`);
  }
  res.end();
}

function jsonError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: message }));
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
