// The capture the viewer preloads: a valid capture log whose session stream carries every AgentScope scenario (each
// reconstructing to its intended message) and whose pi connections carry each pi scenario with its request body.

import { describe, expect, it } from 'vitest';
import { recordDemoCapture } from '../../../src/demo/record-capture.ts';
import { readCaptureLog, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import type { ChunkRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { SCENARIOS } from '../../../src/demo/scenarios/index.ts';
import { PI_SCENARIOS } from '../../../src/demo/pi/pi-scenarios.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { Msg } from '../../../src/core/agentscope/schema.ts';
import { factsOf, reconstruct } from './support.ts';

describe('recordDemoCapture', () => {
  it('is deterministic (virtual time, seeded ids)', async () => {
    expect(writeCaptureLog(await recordDemoCapture())).toBe(writeCaptureLog(await recordDemoCapture()));
  });

  it('is a valid capture log with the whole demo in it', async () => {
    const capture = readCaptureLog(writeCaptureLog(await recordDemoCapture()));
    const conns = capture.records.filter((r): r is ConnectionRecord => r.kind === 'connection');
    expect(conns.map((c) => `${c.method} ${new URL(c.url).pathname.replace(/\/sessions\/\w+\//, '/sessions/…/')}`))
      .toEqual(['GET /sessions/…/stream', ...PI_SCENARIOS.map(() => 'POST /api/stream')]);
    const chunksOf = (id: string) => capture.records.filter((r): r is ChunkRecord => r.kind === 'chunk' && r.conn === id);

    // Arrival times never go backwards, and the session stream has heartbeats in its long silences.
    const times = capture.records.map((r) => ('t' in r ? r.t : r.startTime));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const session = chunksOf(conns[0].id);
    expect(session.some((c) => c.text === ':\n\n')).toBe(true);

    // The session stream replays into each scenario's intended message, in order.
    const frames = session.filter((c) => c.text !== ':\n\n').map((c) => c.text!.slice(6, -2));
    const { replies } = reconstruct(frames);
    expect(replies).toHaveLength(SCENARIOS.length);
    SCENARIOS.forEach((s, i) => expect(factsOf(replies[i], s.intent), s.name).toEqual(s.intent));

    // Each pi connection: the request body names the scenario, the body is exactly its frames.
    PI_SCENARIOS.forEach((s, i) => {
      const conn = conns[i + 1];
      expect(JSON.parse(conn.requestBody!.text!).options.metadata.scenario).toBe(s.name);
      expect(chunksOf(conn.id).map((c) => c.text).join('')).toBe(s.frames.map((f) => `data: ${JSON.stringify(f.event)}\n\n`).join(''));
    });
  });
});

describe('the demo through Replyscope analysis', () => {
  it('clean scenarios are clean, the broken ones carry their diagnostics, final messages are as intended', async () => {
    const [session, ...pi] = analyzeCapture(await recordDemoCapture());
    expect(session.dialect).toBe('agentscope');
    const own = session.replies.filter((r) => !r.orphan);
    expect(own).toHaveLength(SCENARIOS.length);
    // The broken scenario's foreign reply id shows up as an orphan of its own.
    expect(session.replies.filter((r) => r.orphan).map((r) => r.diagnostics.map((d) => d.code))).toEqual([expect.arrayContaining(['as.foreign-reply-id'])]);
    SCENARIOS.forEach((s, i) => {
      const reply = own[i];
      expect(reply.finishedReason, s.name).toBe(s.intent.finished_reason);
      expect(factsOf(reply.history.at(reply.history.length - 1) as Msg, s.intent), s.name).toEqual(s.intent);
      const problems = reply.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code);
      if (s.name === 'broken') {
        expect(problems).toEqual(expect.arrayContaining(['as.delta-before-start', 'as.invalid-base64', 'as.block-not-ended']));
      } else if (s.name === 'external') {
        // Faithful to AgentScope: the agent opens the result (TOOL_RESULT_START) before handing the call to the
        // client, so the broadcast EXTERNAL_EXECUTION_RESULT names a result that already exists and is skipped.
        expect(problems).toEqual(['as.duplicate-tool-result']);
      } else {
        expect(problems, s.name).toEqual([]);
      }
    });
    PI_SCENARIOS.forEach((s, i) => {
      expect(pi[i].dialect).toBe('pi-proxy');
      expect(pi[i].replies.map((r) => r.finishedReason)).toEqual([s.intent.stopReason]);
      const errors = pi[i].diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
      expect(errors, s.name).toEqual(s.name === 'pi-broken' ? ['pi.content-kind-mismatch'] : []);
    });
  });
});
