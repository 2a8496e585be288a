import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import type { BackgroundToPanel } from '../../../src/extension/messages.ts';
import { TabCapture } from '../../../src/extension/tab-capture.ts';

const notice = (text: string): CaptureRecord => ({ kind: 'notice', t: 1, level: 'info', text });
const snapshot = (docId: string, isTop: boolean, records: CaptureRecord[]): BackgroundToPanel => ({
  type: 'snapshot', docId, frameId: isTop ? 0 : 7, frameUrl: `https://app.test/${docId}`, isTop, siteOrigin: 'https://app.test', siteEnabled: true, records, dropped: 0,
});
const texts = (c: TabCapture): string[] => c.records().map((r) => (r.kind === 'notice' ? r.text : r.kind));

describe('TabCapture', () => {
  it('assembles documents: snapshot replaces, records append, stray records are ignored', () => {
    const c = new TabCapture();
    expect(c.apply({ type: 'records', docId: 'top1', records: [notice('stray')] })).toBeUndefined();
    expect(c.apply(snapshot('top1', true, [notice('a')]))).toEqual({ kind: 'reset' });
    expect(c.apply({ type: 'records', docId: 'top1', records: [notice('b')] })).toEqual({ kind: 'append', records: [notice('b')] });
    c.apply(snapshot('frame1', false, [notice('f')]));
    expect(texts(c)).toEqual(['a', 'b', 'f']);
    c.apply(snapshot('top1', true, [notice('a'), notice('b'), notice('c')])); // e.g. after a worker restart
    expect(texts(c)).toEqual(['a', 'b', 'c', 'f']);
  });

  it('without preserve log, leaving a page drops its documents; a removed iframe stays until then', () => {
    const c = new TabCapture();
    c.apply(snapshot('top1', true, [notice('old page')]));
    c.apply(snapshot('frame1', false, [notice('old frame')]));
    c.apply({ type: 'document-gone', docId: 'frame1', isTop: false });
    expect(texts(c)).toEqual(['old page', 'old frame']);
    c.apply(snapshot('top2', true, [notice('new page')])); // the new page may report before the old one is gone
    c.apply({ type: 'document-gone', docId: 'top1', isTop: true });
    expect(texts(c)).toEqual(['new page']);
  });

  it('with preserve log, nothing is dropped until clear()', () => {
    const c = new TabCapture();
    c.preserveLog = true;
    c.apply(snapshot('top1', true, [notice('old page')]));
    c.apply({ type: 'document-gone', docId: 'top1', isTop: true });
    c.apply(snapshot('top2', true, [notice('new page')]));
    expect(texts(c)).toEqual(['old page', 'new page']);
    c.clear();
    expect(c.records()).toEqual([]);
  });

  it('a navigation signalled by the tab (top frame never captured) drops gone subframe documents', () => {
    const c = new TabCapture();
    c.apply(snapshot('frame1', false, [notice('frame')]));
    c.topNavigated();
    expect(texts(c)).toEqual(['frame']); // still alive: it may be the new page's
    c.apply({ type: 'document-gone', docId: 'frame1', isTop: false });
    expect(texts(c)).toEqual([]);
  });
});
