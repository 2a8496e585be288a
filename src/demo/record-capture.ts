// Records what Replyscope's tap would capture from the demo page, without a browser: every AgentScope scenario
// played on one session stream (Allow clicked, the browser's external result sent) and every pi scenario as its own
// POST /api/stream. Time is virtual — the scenarios' own pauses — so the capture is realistic and deterministic
// (only `created_at` strings follow the local time zone). Used by `npm run viewer` as its preloaded sample.

import type { Capture, CaptureRecord, ConnectionRecord } from '../core/capture/model.ts';
import { makeHeader } from '../core/capture/capture-log.ts';
import { SessionHub } from './session-hub.ts';
import { pythonIsoformat, type IdSource } from './wire/ids.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { PI_SCENARIOS } from './pi/pi-scenarios.ts';
import { DEMO_PI_MODEL, DEMO_PI_SYSTEM_PROMPT } from './pi/pi-model.ts';
import { DEMO_AGENT_ID, DEMO_AGENT_NAME } from './constants.ts';

export interface RecordOptions {
  /** Origin the capture claims the demo ran at. */
  origin?: string;
  /** Epoch ms of the first record. */
  start?: number;
}

const HEARTBEAT_MS = 30_000;
const USER_THINKS_MS = 2_500;
/** A parked reply waits for a human: long enough for the service's heartbeat to show up in the capture. */
const USER_DECIDES_MS = 34_000;

/** Deterministic 32-hex ids (xorshift) that look like uuid4().hex, and a clock read from `now()`. */
function virtualIds(now: () => number, seed = 0x9e3779b9): IdSource {
  let x = seed >>> 0;
  const next = () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x.toString(16).padStart(8, '0');
  };
  return { id: () => next() + next() + next() + next(), now: () => pythonIsoformat(now()) };
}

export async function recordDemoCapture(opts: RecordOptions = {}): Promise<Capture> {
  const origin = opts.origin ?? 'http://127.0.0.1:8765';
  let now = opts.start ?? Date.UTC(2026, 2, 1, 9, 0, 0);
  const records: CaptureRecord[] = [];
  const tick = () => (now += 0.25); // frames written back to back still arrive in order
  const turn = () => new Promise<void>((r) => setImmediate(r));
  let connCounter = 0;
  const connection = (fields: Omit<ConnectionRecord, 'kind' | 'id' | 'transport' | 'frameUrl' | 'startTime'>): ConnectionRecord => {
    const record: ConnectionRecord = { kind: 'connection', id: `demo:${++connCounter}`, transport: 'fetch', frameUrl: `${origin}/`, startTime: now, ...fields };
    records.push(record);
    return record;
  };
  const chunk = (conn: string, text: string) => {
    records.push({ kind: 'chunk', conn, t: tick(), bytes: Buffer.byteLength(text), text });
  };

  // --- the AgentScope session stream -------------------------------------------------------------------------
  let sessionConn = '';
  let lastBeat = now;
  const ids = virtualIds(() => now);
  // The page names its events with random UUIDs; a deterministic stand-in in the same format.
  const pageEventId = () => ids.id().replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
  const hub: SessionHub = new SessionHub({
    ids,
    speed: 0,
    agentName: DEMO_AGENT_NAME,
    pause: (ms) => {
      now += ms;
      return turn();
    },
    onPark: (sessionId, kind, replyId) => {
      now += kind === 'confirm' ? USER_DECIDES_MS : USER_THINKS_MS;
      const request = lastRequest(records, sessionConn, kind === 'confirm' ? 'REQUIRE_USER_CONFIRM' : 'REQUIRE_EXTERNAL_EXECUTION');
      const stamp = new Date(now).toISOString();
      hub.trigger(sessionId, DEMO_AGENT_ID, kind === 'confirm'
        ? { type: 'USER_CONFIRM_RESULT', id: pageEventId(), created_at: stamp, reply_id: replyId,
            confirm_results: request.map((call) => ({ confirmed: true, tool_call: call, rules: null })) }
        : { type: 'EXTERNAL_EXECUTION_RESULT', id: pageEventId(), created_at: stamp, reply_id: replyId,
            execution_results: request.map((call) => ({ type: 'tool_result', id: call.id, name: call.name, output: '3/1/2026, 10:00:05 AM (Europe/Paris)', state: 'success' })) });
    },
  });
  const sid = hub.createSession(DEMO_AGENT_ID);
  sessionConn = connection({
    method: 'GET',
    url: `${origin}/sessions/${sid}/stream?agent_id=${DEMO_AGENT_ID}`,
    requestHeaders: [['x-user-id', 'demo-user']],
    status: 200,
    statusText: 'OK',
    responseHeaders: [['content-type', 'text/event-stream'], ['cache-control', 'no-cache'], ['x-accel-buffering', 'no']],
    responseTime: now + 12,
  }).id;
  now += 12;
  hub.subscribe(sid, DEMO_AGENT_ID, (frame) => {
    // The service's heartbeat comment fires on 30 s of silence; in virtual time we add the ones that would have.
    while (now - lastBeat >= HEARTBEAT_MS) {
      lastBeat += HEARTBEAT_MS;
      records.push({ kind: 'chunk', conn: sessionConn, t: lastBeat, bytes: 3, text: ':\n\n' });
    }
    lastBeat = now;
    chunk(sessionConn, frame);
  });
  for (const scenario of SCENARIOS) {
    now += USER_THINKS_MS; // the user picks the next scenario and clicks Send
    hub.trigger(sid, DEMO_AGENT_ID, { name: 'user', role: 'user', content: scenario.prompt, metadata: { scenario: scenario.name } });
    await hub.idle();
  }

  // --- pi proxy streams --------------------------------------------------------------------------------------
  for (const scenario of PI_SCENARIOS) {
    now += USER_THINKS_MS;
    const body = JSON.stringify({
      model: DEMO_PI_MODEL,
      context: { systemPrompt: DEMO_PI_SYSTEM_PROMPT, messages: [{ role: 'user', content: scenario.prompt, timestamp: Math.round(now) }] },
      options: { metadata: { scenario: scenario.name } },
    });
    const conn = connection({
      method: 'POST',
      url: `${origin}/api/stream`,
      requestHeaders: [['authorization', '•••'], ['content-type', 'application/json']],
      requestBody: { text: body, size: Buffer.byteLength(body) },
      status: 200,
      statusText: 'OK',
      responseHeaders: [['content-type', 'text/event-stream'], ['cache-control', 'no-cache'], ['x-accel-buffering', 'no']],
      responseTime: now + 40,
    }).id;
    now += 40;
    for (const { event, pause } of scenario.frames) {
      now += pause;
      chunk(conn, `data: ${JSON.stringify(event)}\n\n`);
    }
    records.push({ kind: 'end', conn, t: tick(), state: 'complete' });
  }
  // The session stream is long-lived: still open when the capture is taken.
  records.push({ kind: 'end', conn: sessionConn, t: tick(), state: 'open' });
  // Said above the connections: a first look at this capture found red counts and took them for the tool failing.
  records.push({ kind: 'notice', t: tick(), level: 'info', text: `Recorded from Replyscope's demo agent: every scenario, ${SCENARIOS.length} on the ` +
    `AgentScope session stream (still open) and ${PI_SCENARIOS.length} pi streams. Some are broken on purpose — a reply that errors, ` +
    'events out of order, a pi stream the client fails on — to show what the diagnostics say.' });
  records.sort((a, b) => ('t' in a ? a.t : (a as ConnectionRecord).startTime) - ('t' in b ? b.t : (b as ConnectionRecord).startTime));
  return { header: makeHeader('replyscope-demo', { pageUrl: `${origin}/`, created: new Date(now).toISOString() }), records };
}

/** The tool calls of the latest REQUIRE_* event on the session stream. */
function lastRequest(records: CaptureRecord[], conn: string, type: string): { id: string; name: string }[] {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r.kind !== 'chunk' || r.conn !== conn || !r.text?.includes(`"type": "${type}"`)) continue;
    return (JSON.parse(r.text.slice(6)) as { tool_calls: { id: string; name: string }[] }).tool_calls;
  }
  throw new Error(`no ${type} recorded before the reply parked`);
}
