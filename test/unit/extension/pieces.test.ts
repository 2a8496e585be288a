// Small pure pieces of the pipeline: request facts, hop schemas, settings, the Firefox manifest.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firefoxManifest } from '../../../scripts/build-firefox-manifest.ts';
import { acceptMessage, captureRecordSchema, DropCounter, relayToBackgroundSchema, tapToRelaySchema } from '../../../src/extension/messages.ts';
import { MAX_CAPTURE_LIMIT_BYTES, parseSettings, setCaptureLimit } from '../../../src/extension/settings.ts';
import { batchRecords } from '../../../src/extension/relay/background-link.ts';
import { maskHeaders } from '../../../src/core/capture/credential-mask.ts';
import { captureBody, isStreamResponse, mediaType, REQUEST_BODY_CAP, urlMatches } from '../../../src/extension/tap/request-info.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('request facts', () => {
  it('recognises stream content types by media type, and include patterns', () => {
    expect(mediaType('Text/Event-Stream; charset=UTF-8')).toBe('text/event-stream');
    for (const t of ['text/event-stream', 'application/x-ndjson', 'application/jsonl', 'application/stream+json']) {
      expect(isStreamResponse(t, 'https://a/', [])).toBe(true);
    }
    expect(isStreamResponse('application/json', 'https://a/api/chat', [])).toBe(false);
    expect(isStreamResponse('application/json', 'https://a/api/chat', ['/api/chat'])).toBe(true);
    expect(urlMatches('https://a.test/v1/run?x=1', ['https://a.test/*/run*'])).toBe(true);
    expect(urlMatches('https://b.test/v1/run', ['https://a.test/*'])).toBe(false);
    expect(urlMatches('https://a.test/x.y', ['a.test/x?y'])).toBe(false); // `?` is literal, not a wildcard
  });

  it('masks credential headers, keeps the rest', () => {
    expect(maskHeaders([['Authorization', 'Bearer x'], ['Cookie', 'a=b'], ['x-api-key', 'k'], ['Accept', 'text/event-stream']])).toEqual([
      ['Authorization', '•••'], ['Cookie', '•••'], ['x-api-key', '•••'], ['Accept', 'text/event-stream'],
    ]);
  });

  it('captures request bodies up to the cap, saying how big they really were', async () => {
    expect(captureBody('{"model":"m"}')).toEqual({ text: '{"model":"m"}', size: 13 });
    expect(captureBody(new URLSearchParams({ q: 'ä' }))).toEqual({ text: 'q=%C3%A4', size: 8 });
    expect(captureBody(new Uint8Array([0xff, 0x00]))).toEqual({ base64: '/wA=', size: 2 });
    const big = 'x'.repeat(REQUEST_BODY_CAP + 10);
    expect(captureBody(big)).toMatchObject({ size: REQUEST_BODY_CAP + 10, truncated: true });
    expect((captureBody(big) as { text: string }).text.length).toBe(REQUEST_BODY_CAP);
    expect(await captureBody(new Blob(['héllo']))).toEqual({ text: 'héllo', size: 6 });
    expect(captureBody(null)).toBeUndefined();
  });
});

describe('hop schemas', () => {
  it('accept real records and refuse look-alikes, counting them', () => {
    const drops = new DropCounter();
    const ok = { type: 'records', records: [{ kind: 'chunk', conn: 'a:1', t: 1.5, bytes: 3, text: 'abc' }] };
    expect(acceptMessage(tapToRelaySchema, ok, drops, 'tap')).toEqual(ok);
    expect(acceptMessage(tapToRelaySchema, { type: 'records', records: [{ kind: 'chunk', conn: 'a:1', t: 1 }] }, drops, 'tap')).toBeUndefined();
    expect(acceptMessage(tapToRelaySchema, { type: 'records', records: [], extra: true }, drops, 'tap')).toBeUndefined();
    expect(acceptMessage(relayToBackgroundSchema, 'hello', drops, 'relay')).toBeUndefined();
    expect(drops.total()).toBe(3);
    expect(drops.lastError).toMatch(/^relay:/);
    expect(captureRecordSchema.safeParse({ kind: 'end', conn: 'c', t: 1, state: 'exploded' }).success).toBe(false);
  });

  it('a page cannot send a page boundary: only the panel writes `navigation` records', () => {
    const drops = new DropCounter();
    const nav = { kind: 'navigation', t: 1, url: 'https://evil.test/' };
    expect(acceptMessage(tapToRelaySchema, { type: 'records', records: [nav] }, drops, 'tap')).toBeUndefined();
    expect(acceptMessage(relayToBackgroundSchema, { type: 'records', docId: 'd', records: [nav] }, drops, 'relay')).toBeUndefined();
    expect(drops.total()).toBe(2);
    const note = { kind: 'notice', t: 1, level: 'info', text: 'a worker' }; // the same messages with a page's own record pass
    expect(acceptMessage(tapToRelaySchema, { type: 'records', records: [note] }, drops, 'tap')).toBeDefined();
    expect(acceptMessage(relayToBackgroundSchema, { type: 'records', docId: 'd', records: [note] }, drops, 'relay')).toBeDefined();
  });

  it('splits big snapshots into messages that stay under the size limit', () => {
    const recs = Array.from({ length: 10 }, (_, i) => ({ kind: 'chunk' as const, conn: 'c', t: i, bytes: 1000, text: 'x'.repeat(1000) }));
    const batches = batchRecords(recs, 3000);
    expect(batches.flat()).toEqual(recs);
    expect(batches.every((b) => b.length >= 1 && b.length <= 3)).toBe(true);
    expect(batchRecords([])).toEqual([[]]);
  });
});

describe('settings', () => {
  it('falls back to defaults for missing or malformed values', () => {
    expect(parseSettings({})).toEqual({ disabledSites: [], includeUrls: [], captureLimitBytes: 64 * 1024 * 1024 });
    expect(parseSettings({ 'replyscope.includeUrls': 'nope', 'replyscope.captureLimitBytes': 5 })).toMatchObject({ includeUrls: [], captureLimitBytes: 64 * 1024 * 1024 });
    expect(parseSettings({ 'replyscope.disabledSites': ['https://a.test'] }).disabledSites).toEqual(['https://a.test']);
  });

  it('stores a capture cap from 1 MiB to the maximum the panel offers, and refuses any other', async () => {
    const stored: Record<string, unknown> = {};
    const area = { get: async () => ({}), set: async (items: Record<string, unknown>) => void Object.assign(stored, items) };
    await setCaptureLimit(1024 * 1024, area);
    expect(stored['replyscope.captureLimitBytes']).toBe(1024 * 1024);
    await setCaptureLimit(MAX_CAPTURE_LIMIT_BYTES, area);
    expect(stored['replyscope.captureLimitBytes']).toBe(128 * 1024 * 1024);
    for (const bad of [1024 * 1024 - 1, MAX_CAPTURE_LIMIT_BYTES + 1, 1.5 * 1024 * 1024 + 0.5, Number.NaN, 1024 ** 3]) {
      await expect(setCaptureLimit(bad, area)).rejects.toThrow(/capture limit must be an integer from 1 MiB to 128 MiB/);
    }
    expect(stored['replyscope.captureLimitBytes']).toBe(128 * 1024 * 1024);
  });
});

describe('Firefox manifest', () => {
  it('is derived from the one manifest: background scripts, gecko settings, nothing Chromium-only', () => {
    const source = JSON.parse(readFileSync(path.join(repoRoot, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const ff = firefoxManifest(source) as Record<string, any>;
    expect(ff.background).toEqual({ scripts: [(source.background as { service_worker: string }).service_worker], type: 'module' });
    expect(ff.browser_specific_settings.gecko.strict_min_version).toBe('140.0');
    expect(ff.browser_specific_settings.gecko.data_collection_permissions).toEqual({ required: ['none'] });
    expect(ff.browser_specific_settings.gecko_android.strict_min_version).toBe('142.0');
    expect(ff.minimum_chrome_version).toBeUndefined();
    expect(ff.message_serialization).toBeUndefined();
    expect(ff.content_scripts).toEqual(source.content_scripts);
    expect(() => firefoxManifest({ background: {} })).toThrow(/service_worker/);
  });
});
