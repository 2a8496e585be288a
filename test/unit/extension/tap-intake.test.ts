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
