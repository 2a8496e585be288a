// The frame list keeps frames in columns: what goes in must come out as the same frame objects the analysis used to
// keep (fields present exactly when they were), past the columns' growth, through JSON too.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FrameList } from '../../../src/core/frames/frame-list.ts';
import { NdjsonDecoder } from '../../../src/core/frames/ndjson.ts';
import type { FrameView } from '../../../src/core/analysis/types.ts';

const frameArb = fc.record({
  t: fc.oneof(fc.double({ noNaN: true, min: 0, max: 4e12 }), fc.constant(Number.NaN)),
  kind: fc.constantFrom('data', 'comment', 'ndjson', 'message') as fc.Arbitrary<FrameView['kind']>,
  data: fc.string(),
  heartbeat: fc.boolean(),
  event: fc.option(fc.string(), { nil: undefined }),
  id: fc.option(fc.string(), { nil: undefined }),
  foreign: fc.option(fc.constant(true), { nil: undefined }),
  sent: fc.option(fc.constant(true), { nil: undefined }),
  clientNote: fc.option(fc.string(), { nil: undefined }),
  place: fc.option(fc.tuple(fc.nat(2 ** 40), fc.nat(1000)), { nil: undefined }),
});

type Gen = typeof frameArb extends fc.Arbitrary<infer T> ? T : never;

/** The object the analysis kept before: only the fields given, index = position. */
function expected(f: Gen, index: number) {
  const out: Record<string, unknown> = { index, t: f.t, kind: f.kind, data: f.data, heartbeat: f.heartbeat };
  if (f.place) {
    out.start = f.place[0];
    out.end = f.place[0] + f.place[1];
  }
  for (const k of ['event', 'id', 'foreign', 'sent', 'clientNote'] as const) if (f[k] !== undefined) out[k] = f[k];
  return out;
}

describe('FrameList', () => {
  it('property: every frame reads back as it was pushed, past the columns\' growth, and through JSON', () => {
    fc.assert(fc.property(fc.array(frameArb, { maxLength: 200, size: 'max' }), (frames) => {
      const list = new FrameList();
      for (const f of frames) {
        const { place, ...rest } = f;
        list.push({ ...rest, ...(place ? { start: place[0], end: place[0] + place[1] } : {}) });
      }
      const want = frames.map(expected);
      expect(list.length).toBe(frames.length);
      expect(list.toArray()).toEqual(want);
      expect([...list]).toEqual(want);
      expect(JSON.parse(JSON.stringify({ frames: list }))).toEqual(JSON.parse(JSON.stringify({ frames: want })));
      frames.forEach((f, i) => {
        expect(list.t(i)).toBe(f.t);
        expect(list.data(i)).toBe(f.data);
        expect(list.kind(i)).toBe(f.kind);
        expect(list.heartbeat(i)).toBe(f.heartbeat);
        expect(list.event(i)).toBe(f.event);
        expect(list.clientNote(i)).toBe(f.clientNote);
      });
      if (frames.length) expect(list.at(-1)).toEqual(want.at(-1));
      expect(list.at(frames.length)).toBeUndefined();
      expect(list.at(-frames.length - 1)).toBeUndefined();
    }), { numRuns: 300 });
  });

  it('pushSpec keeps an SSE frame\'s place; a note set later shows on that frame only', () => {
    const list = new FrameList();
    for (let i = 0; i < 100; i++) list.pushSpec(1000 + i, i % 3 ? 'data' : 'comment', `d${i}`, i % 3 === 0, i * 10, i * 10 + 9, i === 5 ? 'ping' : undefined, i === 6 ? '7' : undefined);
    list.setClientNote(7, 'client: dropped');
    expect(list.at(5)).toEqual({ index: 5, t: 1005, kind: 'data', data: 'd5', heartbeat: false, start: 50, end: 59, event: 'ping' });
    expect(list.at(6)).toEqual({ index: 6, t: 1006, kind: 'comment', data: 'd6', heartbeat: true, start: 60, end: 69, id: '7' });
    expect(list.at(7)?.clientNote).toBe('client: dropped');
    expect(list.toArray().filter((f) => f.clientNote !== undefined).map((f) => f.index)).toEqual([7]);
    expect(list.slice(98)).toEqual([list.at(98), list.at(99)]);
    expect(list.at(99)).toEqual({ index: 99, t: 1099, kind: 'comment', data: 'd99', heartbeat: true, start: 990, end: 999 });
  });

  it('at and slice read their arguments as Array.prototype.at and slice do (negative, fractional, NaN, out of range)', () => {
    fc.assert(fc.property(fc.array(frameArb, { maxLength: 12 }), fc.array(fc.oneof(fc.integer({ min: -15, max: 15 }), fc.double({ min: -15, max: 15 }), fc.constantFrom(Number.NaN, Infinity, -Infinity, undefined)), { minLength: 2, maxLength: 2 }), (frames, [a, b]) => {
      const list = FrameList.from(frames.map(({ place, ...rest }) => rest));
      const arr = list.toArray();
      expect(list.at(a as number)).toEqual(arr.at(a as number));
      expect(list.slice(a, b)).toEqual(arr.slice(a, b));
      expect(list.slice(a)).toEqual(arr.slice(a));
    }), { numRuns: 500 });
  });

  it('an NDJSON line the body ended without a line end keeps its mark ("unterminated", as the frame objects had it)', () => {
    const dec = new NdjsonDecoder();
    const list = new FrameList();
    for (const f of [...dec.push('{"a":1}\n{"b":2}', 5), ...dec.finish()]) list.push(f);
    expect(list.toArray()).toEqual(dec.frames);
    expect(JSON.parse(JSON.stringify(list))).toEqual(JSON.parse(JSON.stringify(dec.frames)));
    expect(list.at(1)).toMatchObject({ data: '{"b":2}', unterminated: true });
    expect(list.at(0)).not.toHaveProperty('unterminated');
  });

  it('a client note for a frame it does not hold is refused (kept, it would attach to the frame pushed at that index later)', () => {
    const list = new FrameList();
    list.pushSpec(1, 'data', 'a', false, 0, 9);
    for (const i of [1, -1, 0.5, Number.NaN]) expect(() => list.setClientNote(i, 'client: dropped')).toThrow(RangeError);
    list.pushSpec(2, 'data', 'b', false, 9, 18);
    expect(list.at(1)).not.toHaveProperty('clientNote');
    list.setClientNote(1, 'client: dropped');
    expect(list.clientNote(1)).toBe('client: dropped');
  });

  it('a frame of a kind it does not know is refused (its bits would read as every flag set)', () => {
    expect(() => new FrameList().push({ t: 0, kind: 'bogus' as FrameView['kind'], data: '', heartbeat: false })).toThrow(/kind/);
  });
});
