// The reducer is pure and step-wise: earlier states never change, any step can be re-materialised, and the
// reference's "shared message" effects still show up in the latest state.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readBlock } from '../../../src/core/pi/message-state.ts';
import {
  applyPiDataLine,
  applyPiProxyEvent,
  initialPiState,
  piFinalResult,
  piStateSnapshot,
  type PiProxyState,
} from '../../../src/core/pi/proxy-reducer.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const casesDir = path.resolve(repoRoot, '../shared/conformance/pi/cases');
const loadCase = (name: string) => JSON.parse(readFileSync(path.join(casesDir, `${name}.json`), 'utf8'));

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function run(name: string): PiProxyState[] {
  const c = loadCase(name);
  const states = [deepFreeze(initialPiState({ model: c.client.model }))];
  for (const ev of c.events) states.push(deepFreeze(applyPiProxyEvent(states[states.length - 1], ev).state));
  return states;
}

describe('pi proxy reducer', () => {
  for (const name of ['events_after_done', 'toolcall_partial_json', 'thinking_text_signatures', 'missing_content_index']) {
    it(`never mutates earlier states (${name})`, () => {
      // Frozen states: any in-place write would throw in this strict-mode module.
      const states = run(name);
      const before = states.map(piStateSnapshot);
      const again = states.map(piStateSnapshot);
      expect(again).toEqual(before);
      // Re-applying the same event to an old state gives the same next state (no hidden shared state).
      const c = loadCase(name);
      const k = Math.floor(c.events.length / 2);
      expect(piStateSnapshot(applyPiProxyEvent(states[k], c.events[k]).state)).toEqual(before[k + 1]);
    });
  }

  it('keeps changing the settled message after done (shared-object semantics), not the done step', () => {
    const states = run('events_after_done');
    const doneAt = loadCase('events_after_done').events.findIndex((e: { type: string }) => e.type === 'done') + 1;
    const atDone = piStateSnapshot(states[doneAt]);
    const last = states[states.length - 1];
    expect(atDone.stopReason).toBe('stop');
    expect(last.settled).toBe(true);
    expect(piFinalResult(last)?.stopReason).toBe('error');
    expect(piFinalResult(last)?.errorMessage).toBe('late error');
  });

  it('keeps blocks stored under non-index keys addressable but invisible', () => {
    const states = run('missing_content_index');
    const s = states[3]; // after text_start without index and its delta
    expect(readBlock(s.message.content, 'undefined')).toEqual({ type: 'text', text: 'hidden' });
    expect(piStateSnapshot(s).content).toEqual([]);
  });

  it('fails on writes the reference cannot do and stops reading', () => {
    const s0 = initialPiState({ model: { api: 'a', provider: 'p', id: 'm' } });
    const step = applyPiProxyEvent(s0, { type: 'text_start', contentIndex: 'length' });
    expect(step.failure).toBe('Invalid array length');
    expect(step.emitted).toBe('error');
    expect(step.state.stopped).toBe(true);
    const after = applyPiProxyEvent(step.state, { type: 'start' });
    expect(after.skipped).toBe('after-failure');
    expect(after.state).toBe(step.state);
    expect(applyPiDataLine(s0, 'null').failure).toBe("Cannot read properties of null (reading 'type')");
    expect(applyPiDataLine(s0, '42').warning).toBe('Unhandled proxy event type: undefined');
  });

  it('stays cheap for a huge content index and refuses to materialise it', () => {
    let s = initialPiState({});
    s = applyPiProxyEvent(s, { type: 'text_start', contentIndex: 4294967294 }).state;
    s = applyPiProxyEvent(s, { type: 'text_delta', contentIndex: 4294967294, delta: 'x' }).state;
    expect(readBlock(s.message.content, '4294967294')).toEqual({ type: 'text', text: 'x' });
    expect(() => piStateSnapshot(s)).toThrow(RangeError);
    // 4294967295 is not an array index: a hidden key, like in JavaScript.
    s = applyPiProxyEvent(initialPiState({}), { type: 'text_start', contentIndex: 4294967295 }).state;
    expect(piStateSnapshot(s).content).toEqual([]);
  });

  it('coerces non-string deltas like JavaScript string concatenation', () => {
    let s = initialPiState({});
    s = applyPiProxyEvent(s, { type: 'text_start', contentIndex: 0 }).state;
    s = applyPiProxyEvent(s, { type: 'text_delta', contentIndex: 0, delta: { a: 1 } }).state;
    s = applyPiProxyEvent(s, { type: 'text_delta', contentIndex: 0 }).state;
    expect(piStateSnapshot(s).content).toEqual([{ type: 'text', text: '[object Object]undefined' }]);
  });
});

describe('tool-call arguments nested deeper than JSON can show', () => {
  it('snapshot with a marker where they get too deep (the lazily parsed arguments too)', () => {
    let s = initialPiState(undefined);
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    for (const ev of [{ type: 'start' }, { type: 'toolcall_start', contentIndex: 0, id: 't', toolName: 'x' }, { type: 'toolcall_delta', contentIndex: 0, delta: deep }]) {
      s = applyPiProxyEvent(s, ev).state;
    }
    let v = (piStateSnapshot(s) as { content: { arguments: unknown }[] }).content[0].arguments;
    let depth = 0;
    while (Array.isArray(v)) {
      v = v[0];
      depth++;
    }
    expect(depth).toBeGreaterThan(990);
    expect(v).toBe('[nested deeper than 1000 levels: not shown]');
  });
});
