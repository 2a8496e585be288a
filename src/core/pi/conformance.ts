// Runs one pi conformance case (see /work/shared/conformance/README.md, "pi cases") through our own client model:
// the case's body is cut into network chunks, read like streamProxy reads it (client-reading.ts) and applied with
// the pure reducer (proxy-reducer.ts). No network, no timers: everything is deterministic.
import { PiByteReader, PI_ABORT_MESSAGE, piHttpFailure } from './client-reading.ts';
import { jsonRoundTrip, type PiMessageJson } from './message-state.ts';
import {
  applyPiDataLine,
  failPiClient,
  initialPiState,
  piFinalResult,
  piStateSnapshot,
  type PiEventDetail,
  type PiProxyState,
  type PiProxyStep,
} from './proxy-reducer.ts';

export interface PiCaseOutput {
  request: { method: 'POST'; url: string; body: unknown };
  events: string[];
  eventDetails: PiEventDetail[];
  steps: PiMessageJson[];
  final: PiMessageJson | null;
  resultSettled: boolean;
  droppedAfterCompletion: (PiEventDetail & { message: PiMessageJson })[];
  warnings: string[];
}

/** The undici (Node) text of the AbortError fetch rejects with when the signal is aborted before sending. */
export const PI_FETCH_ABORT_MESSAGE = 'This operation was aborted';

/** Node's default reason phrases (http.STATUS_CODES, 2xx–5xx): what the harness server sent as statusText. */
const REASON_PHRASES: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 203: 'Non-Authoritative Information', 204: 'No Content',
  205: 'Reset Content', 206: 'Partial Content', 207: 'Multi-Status', 208: 'Already Reported', 226: 'IM Used',
  300: 'Multiple Choices', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified',
  305: 'Use Proxy', 307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized',
  402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
  407: 'Proxy Authentication Required', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone', 411: 'Length Required',
  412: 'Precondition Failed', 413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable', 417: 'Expectation Failed', 418: "I'm a Teapot", 421: 'Misdirected Request',
  422: 'Unprocessable Entity', 423: 'Locked', 424: 'Failed Dependency', 425: 'Too Early', 426: 'Upgrade Required',
  428: 'Precondition Required', 429: 'Too Many Requests', 431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons', 500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates', 507: 'Insufficient Storage', 508: 'Loop Detected', 509: 'Bandwidth Limit Exceeded',
  510: 'Not Extended', 511: 'Network Authentication Required',
};

type Abort = { kind: 'before-request' } | { kind: 'after-chunks'; chunks: number };

function fail(message: string): never {
  throw new Error(`pi conformance case: ${message}`);
}

function parseAbort(value: unknown): Abort | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (value === 'before-request' || value === true) return { kind: 'before-request' };
  // Not in the published cases: accept "after-chunks:N" / {afterChunks: N} as "abort once N chunks were read".
  const m = typeof value === 'string' ? /^after-chunks:(\d+)$/.exec(value) : null;
  const n = m ? Number(m[1]) : (value as { afterChunks?: unknown }).afterChunks;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return { kind: 'after-chunks', chunks: n };
  return fail(`unsupported abort ${JSON.stringify(value)} (use "before-request" or "after-chunks:N")`);
}

/** The body as the server wrote it: one string per network write (before `chunking`). */
function bodyWrites(c: Record<string, unknown>): string[] {
  const http = c.http as { body?: unknown } | undefined;
  if (http && http.body !== undefined) return [typeof http.body === 'string' ? http.body : JSON.stringify(http.body)];
  if (c.raw !== undefined) {
    if (!Array.isArray(c.raw) || !c.raw.every((x) => typeof x === 'string')) fail('`raw` must be an array of strings');
    return c.raw as string[];
  }
  if (c.events !== undefined) {
    if (!Array.isArray(c.events)) fail('`events` must be an array');
    return (c.events as unknown[]).map((ev) => `data: ${JSON.stringify(ev)}\n\n`);
  }
  return [];
}

/** Splits the writes into the chunks the client reads, per `chunking` (frame | single | bytes:N). */
export function chunkBody(writes: string[], chunking: unknown = 'frame'): Uint8Array[] {
  const encoder = new TextEncoder();
  if (chunking === 'frame') return writes.map((w) => encoder.encode(w));
  const whole = encoder.encode(writes.join(''));
  if (chunking === 'single') return whole.length ? [whole] : [];
  const m = typeof chunking === 'string' ? /^bytes:(\d+)$/.exec(chunking) : null;
  const size = m ? Number(m[1]) : 0;
  if (!size) fail(`unsupported chunking ${JSON.stringify(chunking)} (frame | single | bytes:N with N > 0)`);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < whole.length; i += size) chunks.push(whole.subarray(i, i + size));
  return chunks;
}

class CaseRecorder {
  readonly out: Omit<PiCaseOutput, 'request' | 'final' | 'resultSettled'> = {
    events: [],
    eventDetails: [],
    steps: [],
    droppedAfterCompletion: [],
    warnings: [],
  };
  constructor(public state: PiProxyState) {}

  take(step: PiProxyStep): void {
    this.state = step.state;
    if (step.warning !== undefined) this.out.warnings.push(step.warning);
    if (!step.emitted || !step.detail) return;
    const snapshot = piStateSnapshot(step.state);
    if (step.delivered) {
      this.out.events.push(step.emitted);
      this.out.eventDetails.push(step.detail);
      this.out.steps.push(snapshot);
    } else {
      this.out.droppedAfterCompletion.push({ ...step.detail, message: snapshot });
    }
  }
}

/** Runs a parsed case object and returns the output object of the conformance README. */
export function runPiCase(caseJson: unknown): PiCaseOutput {
  if (caseJson === null || typeof caseJson !== 'object' || Array.isArray(caseJson)) fail('expected a JSON object');
  const c = caseJson as Record<string, unknown>;
  const client = c.client as { model?: unknown; context?: unknown } | undefined;
  if (!client || typeof client !== 'object') fail('missing `client` ({model, context})');
  const requestBody = jsonRoundTrip({ model: client.model, context: client.context });
  const rec = new CaseRecorder(initialPiState(requestBody));
  const abort = parseAbort(c.abort);
  const http = c.http as { status?: unknown; statusText?: unknown; body?: unknown } | undefined;
  if (http !== undefined && (typeof http !== 'object' || typeof http.status !== 'number')) {
    fail('`http` must be {status: number, body?}');
  }

  if (abort?.kind === 'before-request') {
    rec.take(failPiClient(rec.state, PI_FETCH_ABORT_MESSAGE, 'aborted'));
  } else {
    const status = (http?.status as number | undefined) ?? 200;
    const statusText = typeof http?.statusText === 'string' ? http.statusText : (REASON_PHRASES[status] ?? '');
    const writes = bodyWrites(c);
    const failure = piHttpFailure({ status, statusText, bodyText: writes.join('') });
    if (failure !== undefined) {
      rec.take(failPiClient(rec.state, failure));
    } else {
      readBody(rec, chunkBody(writes, c.chunking ?? 'frame'), abort);
    }
  }
  return {
    request: { method: 'POST', url: '/api/stream', body: requestBody },
    ...rec.out,
    final: piFinalResult(rec.state),
    resultSettled: rec.state.settled,
  };
}

function readBody(rec: CaseRecorder, chunks: Uint8Array[], abort: Abort | undefined): void {
  const reader = new PiByteReader();
  for (let i = 0; i < chunks.length && !rec.state.stopped; i++) {
    if (abort?.kind === 'after-chunks' && i >= abort.chunks) break;
    for (const line of reader.push(chunks[i])) {
      if (rec.state.stopped) break;
      if (line.data !== undefined) rec.take(applyPiDataLine(rec.state, line.data));
    }
  }
  if (abort?.kind === 'after-chunks' && !rec.state.stopped) rec.take(failPiClient(rec.state, PI_ABORT_MESSAGE, 'aborted'));
}
