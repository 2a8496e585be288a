// The relay's intake of the tap's batches (relay/tap-intake.ts): the tap's order, the leave hand-off, the site switch.
import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../../src/core/capture/model.ts';
import { DropCounter, type PageRecord, type TapToRelay } from '../../../src/extension/messages.ts';
import { CaptureStore } from '../../../src/extension/relay/capture-store.ts';
import { TapIntake } from '../../../src/extension/relay/tap-intake.ts';

const conn = (id: string): ConnectionRecord => ({
  kind: 'connection', id, transport: 'fetch', frameUrl: 'https://app.test/', method: 'GET', url: `https://app.test/${id}`, requestHeaders: [], startTime: 1,
});
const chunk = (c: string, text: string, t = 2): PageRecord => ({ kind: 'chunk', conn: c, t, bytes: text.length, text });
const batch = (seq: number, records: PageRecord[]): TapToRelay => ({ type: 'records', seq, records });

function setup() {
  const store = new CaptureStore(1 << 20);
  const drops = new DropCounter();
  return { store, drops, intake: new TapIntake(store, drops) };
}

describe('TapIntake: the site switch', () => {
  it('records nothing for a site switched off — not the leave notice either, and nothing to forward', () => {
    const { store, intake } = setup();
    intake.setSite(false, 0);
    expect(intake.take(batch(0, [conn('a')]), false, 1)).toBeUndefined();
    // The leave hand-off overtook batch 1: on a site that is on, a warning says so.
    expect(intake.take(batch(2, [chunk('a', 'x')]), true, 2)).toBeUndefined();
    expect(store.snapshot()).toEqual([]);
    expect(store.size).toBe(0);
  });

  it('before the settings are read, the leave notice is kept with the records, and goes with them if the site is off', () => {
    const { store, intake } = setup();
    intake.take(batch(0, [conn('a')]), false, 1);
    const forward = intake.take(batch(2, [chunk('a', 'x')]), true, 2);
    expect(forward?.map((r) => r.kind)).toEqual(['notice', 'chunk']);
    expect(store.snapshot().map((r) => r.kind)).toEqual(['connection', 'notice', 'chunk']);
    expect(intake.setSite(false, 3)).toBe(true); // something was dropped: a watching panel gets a fresh snapshot
    expect(store.snapshot()).toEqual([]);
    expect(store.size).toBe(0);
  });

  it('a notice alone, before the settings are read, is dropped too when the site is off', () => {
    const { store, intake } = setup();
    intake.take(batch(0, []), false, 1);
    intake.take(batch(2, []), true, 2); // an empty leave batch after a gap: only the notice
    expect(store.snapshot().map((r) => r.kind)).toEqual(['notice']);
    expect(intake.setSite(false, 3)).toBe(true);
    expect(store.snapshot()).toEqual([]);
  });

  it('on a site that is on, the leave notice comes before the batch that overtook the others', () => {
    const { store, intake } = setup();
    intake.setSite(true, 0);
    intake.take(batch(0, [conn('a')]), false, 1);
    intake.take(batch(3, [chunk('a', 'x')]), true, 2);
    const records = store.snapshot();
    expect(records.map((r) => r.kind)).toEqual(['connection', 'notice', 'chunk']);
    expect(records[1]).toMatchObject({ level: 'warning', text: expect.stringMatching(/^The page left while 2 batches of records/) });
  });
});

describe('TapIntake: a batch the leave hand-off overtook, coming after all (the page back from the back/forward cache)', () => {
  it('is dropped by design: not counted as an invalid message, and the capture says what became of it', () => {
    const { store, drops, intake } = setup();
    intake.setSite(true, 0);
    intake.take(batch(0, [conn('a'), chunk('a', 'one ')]), false, 1);
    intake.take(batch(2, [chunk('a', 'three '), { kind: 'end', conn: 'a', t: 3, state: 'aborted' }]), true, 3); // the page left; batch 1 was on its way
    expect(intake.take(batch(1, [chunk('a', 'two ')]), false, 4)).toEqual([expect.objectContaining({ kind: 'notice', level: 'info' })]);
    expect(drops.total()).toBe(0); // the count the panel shows as "invalid … dropped"
    expect(store.rejected).toBe(0);
    const records = store.snapshot();
    expect(records.map((r) => r.kind)).toEqual(['connection', 'chunk', 'notice', 'chunk', 'end', 'notice']);
    expect(records.at(-1)).toMatchObject({ text: expect.stringMatching(/^A batch of records sent before the page left came only after it was back/) });
    // What the page streams after its return is taken as before.
    expect(intake.take(batch(3, [conn('b')]), false, 5)?.map((r) => r.kind)).toEqual(['connection']);
  });

  it('on a site switched off: nothing recorded, nothing counted', () => {
    const { store, drops, intake } = setup();
    intake.setSite(false, 0);
    intake.take(batch(0, []), false, 1);
    intake.take(batch(2, []), true, 2);
    expect(intake.take(batch(1, [conn('a')]), false, 3)).toBeUndefined();
    expect(drops.total()).toBe(0);
    expect(store.snapshot()).toEqual([]);
  });

  it('a malformed batch is still counted as invalid', () => {
    const { drops, intake } = setup();
    expect(intake.take({ type: 'records', seq: -1, records: [] }, false, 1)).toBeUndefined();
    expect(drops.total()).toBe(1);
  });
});
