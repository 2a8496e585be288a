// Service semantics of the session hub: replay of the current run on (re)subscribe, the log dropped when a run ends
// or parks, one run per session, HITL resume checks, input validation.

import { describe, expect, it } from 'vitest';
import { SessionHub } from '../../../src/demo/session-hub.ts';
import { sequentialIds } from '../../../src/demo/wire/ids.ts';
import { InputError } from '../../../src/demo/normalize-input.ts';
import { startReply, endReply, streamBlock } from '../../../src/demo/scenarios/script.ts';
import type { Scenario } from '../../../src/demo/scenarios/index.ts';

const AGENT = 'demo-agent';
const userMsg = (scenario: string) => ({ name: 'user', role: 'user', content: [{ type: 'text', text: 'hi' }], metadata: { scenario } });
const typesOf = (frames: string[]) => frames.map((f) => (JSON.parse(f.slice(6)) as { type: string }).type);

/** A scenario that stops half-way until the test opens the gate — makes "a run in progress" deterministic. */
function gatedScenario(): { scenario: Scenario; open: () => void; reached: Promise<void> } {
  let open!: () => void;
  let reachedResolve!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const reached = new Promise<void>((r) => (reachedResolve = r));
  const scenario: Scenario = {
    name: 'gated', title: 'gated', prompt: '', description: '',
    intent: { finished_reason: 'completed', texts: ['first', 'second'] },
    async run(ctx) {
      const reply = await startReply(ctx);
      await streamBlock(ctx, reply, 'first');
      reachedResolve();
      await gate;
      await streamBlock(ctx, reply, 'second');
      await endReply(ctx, reply);
    },
  };
  return { scenario, open, reached };
}

function expectInputError(fn: () => unknown, status: number, pattern: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).status).toBe(status);
    expect((err as InputError).message).toMatch(pattern);
    return;
  }
  throw new Error('expected an InputError');
}

describe('SessionHub', () => {
  it('a late subscriber gets the current run replayed, then live frames, with nothing lost or doubled', async () => {
    const { scenario, open, reached } = gatedScenario();
    const hub = new SessionHub({ ids: sequentialIds(), speed: 0, agentName: 'Friday', pickScenario: () => scenario });
    const sid = hub.createSession(AGENT);
    const early: string[] = [];
    hub.subscribe(sid, AGENT, (f) => early.push(f));
    hub.trigger(sid, AGENT, userMsg('gated'));
    await reached;
    const late: string[] = [];
    hub.subscribe(sid, AGENT, (f) => late.push(f));
    expect(late).toEqual(early); // replay so far
    open();
    await hub.idle();
    expect(late).toEqual(early);
    expect(typesOf(late).at(-1)).toBe('REPLY_END');
    // The run is over: its log is dropped, a new subscriber starts empty (the service trims the log).
    const after: string[] = [];
    hub.subscribe(sid, AGENT, (f) => after.push(f));
    expect(after).toEqual([]);
  });

  it('one run per session: a second message while running is a 409', async () => {
    const { scenario, open, reached } = gatedScenario();
    const hub = new SessionHub({ ids: sequentialIds(), speed: 0, agentName: 'Friday', pickScenario: () => scenario });
    const sid = hub.createSession(AGENT);
    hub.trigger(sid, AGENT, userMsg('gated'));
    await reached;
    expectInputError(() => hub.trigger(sid, AGENT, userMsg('gated')), 409, /already in progress/);
    open();
    await hub.idle();
    expect(hub.trigger(sid, AGENT, userMsg('gated'))).toEqual({ status: 'started', session_id: sid });
    open();
    await hub.idle();
  });

  it('a parked reply: log dropped, new messages refused, wrong answers refused, the right one resumes', async () => {
    let parkedReply = '';
    const hub = new SessionHub({ ids: sequentialIds(), speed: 0, agentName: 'Friday', onPark: (_s, _k, reply) => (parkedReply = reply) });
    const sid = hub.createSession(AGENT);
    const frames: string[] = [];
    hub.subscribe(sid, AGENT, (f) => frames.push(f));
    hub.trigger(sid, AGENT, userMsg('confirm'));
    await until(() => parkedReply !== '');
    const late: string[] = [];
    hub.subscribe(sid, AGENT, (f) => late.push(f));
    expect(late).toEqual([]);
    expectInputError(() => hub.trigger(sid, AGENT, userMsg('plain-text')), 409, /waiting for your answer/);
    expectInputError(() => hub.trigger(sid, AGENT, { type: 'EXTERNAL_EXECUTION_RESULT', reply_id: parkedReply, execution_results: [] }), 409, /external result/);
    expectInputError(() => hub.trigger(sid, AGENT, { type: 'USER_CONFIRM_RESULT', reply_id: 'nope', confirm_results: [] }), 409, /no reply nope/);
    expectInputError(() => hub.trigger(sid, AGENT, { type: 'USER_CONFIRM_RESULT', reply_id: parkedReply, confirm_results: [{ confirmed: 'yes' }] }), 422, /confirmed|tool_call/);
    expectInputError(() => hub.trigger(sid, AGENT, { type: 'USER_CONFIRM_RESULT', reply_id: parkedReply, confirm_results: [{ confirmed: true, tool_call: { id: 'x', name: 'Bash', input: '', state: 'bogus' } }] }), 422, /state: Input should be 'pending'/);
    const request = JSON.parse(frames.map((f) => f.slice(6)).find((t) => t.includes('REQUIRE_USER_CONFIRM'))!) as { tool_calls: unknown[] };
    hub.trigger(sid, AGENT, { type: 'USER_CONFIRM_RESULT', reply_id: parkedReply, confirm_results: [{ confirmed: true, tool_call: request.tool_calls[0] }] });
    await hub.idle();
    expect(typesOf(late).slice(0, 2)).toEqual(['USER_CONFIRM_RESULT', 'REPLY_START']);
    expect(typesOf(late).at(-1)).toBe('REPLY_END');
    // Defaults the page left out are filled as pydantic's model_dump does.
    const broadcast = JSON.parse(late[0].slice(6)) as { metadata: unknown; confirm_results: { rules: unknown; tool_call: { state: string } }[] };
    expect(broadcast.metadata).toEqual({});
    expect(broadcast.confirm_results[0].rules).toBeNull();
  });

  it('rejects unknown sessions, wrong agents and malformed input with clear errors', () => {
    const hub = new SessionHub({ ids: sequentialIds(), speed: 0, agentName: 'Friday' });
    const sid = hub.createSession(AGENT);
    expectInputError(() => hub.subscribe('missing', AGENT, () => {}), 404, /not found/);
    expectInputError(() => hub.trigger(sid, 'other-agent', userMsg('plain-text')), 404, /not found/);
    expectInputError(() => hub.trigger(sid, AGENT, null), 422, /needs a message/);
    expectInputError(() => hub.trigger(sid, AGENT, { role: 'user' }), 422, /expected a Msg/);
    expectInputError(() => hub.trigger(sid, AGENT, []), 422, /empty list/);
  });
});

/** Waits (by yielding to the event loop, not by sleeping) until `cond` holds. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setImmediate(r));
  if (!cond()) throw new Error('condition never became true');
}
