// Every message that crosses a hop of the capture pipeline, one zod-checked union per hop:
//
//   page tap (MAIN world) ──MessagePort──▶ relay (isolated world) ──runtime.Port──▶ background ──▶ panel
//
// Fetch bodies travel as raw bytes (`BytesRecord`), cut on character boundaries by the tap and decoded into capture
// log chunk records only at the end of the line (TabCapture, in the panel's or the worker's process): the page's
// main thread — which the tap and the relay share with the page — copies bytes but never decodes or stringifies
// them. Extension messaging carries them by structured clone (manifest `message_serialization`).
//
// Receivers parse with `acceptMessage()`: anything that does not match is dropped and counted, never half-used.
// The MAIN-world tap must stay dependency-free, so it imports only the *types* from this file (erased at build).
import { z } from 'zod';
import type { CaptureHeader, PageRecord } from '../core/capture/model.ts';
import {
  chunkSchema, connectionSchema, endSchema, evictedSchema, headerSchema, messageSchema, noticeSchema,
} from '../core/capture/schemas.ts';

// The record shapes are the capture log's (one source of truth: src/core/capture/schemas.ts), so what crosses a hop
// is exactly what a capture log may hold — except `navigation` records, which the panel writes itself (TabCapture)
// from what the browser says about the tab: a page cannot send one (it could draw a false page boundary).
export type { PageRecord };
export const connectionRecordSchema = connectionSchema;
export const captureRecordSchema = z.discriminatedUnion('kind', [
  connectionSchema, chunkSchema, messageSchema, endSchema, evictedSchema, noticeSchema,
]);
export const captureHeaderSchema = headerSchema;

/** A fetch chunk on its way to the panel: `payload` as ChunkSplitter cut it (see core/frames/byte-chunks.ts). */
export interface BytesRecord {
  kind: 'bytes';
  conn: string;
  t: number;
  bytes: number;
  payload: Uint8Array;
}
/** What the hops carry: capture log records (no `navigation`, see above), plus fetch chunks still as bytes. */
export type WireRecord = PageRecord | BytesRecord;

// A Uint8Array from another realm (Firefox delivers page objects to content scripts behind wrappers) fails
// `instanceof`; the tag check accepts it and the transform copies it into this realm.
const isUint8Array = (v: unknown): boolean => v instanceof Uint8Array || Object.prototype.toString.call(v) === '[object Uint8Array]';
export const bytesRecordSchema = z.strictObject({
  kind: z.literal('bytes'),
  conn: z.string(),
  t: z.number(),
  bytes: z.number().int().nonnegative(),
  payload: z.custom<Uint8Array>(isUint8Array, 'expected a Uint8Array').transform((v) => (v instanceof Uint8Array ? v : new Uint8Array(v))),
});
export const wireRecordSchema = z.discriminatedUnion('kind', [
  connectionSchema, chunkSchema, messageSchema, endSchema, evictedSchema, noticeSchema, bytesRecordSchema,
]);
const wireMatches: Same<z.infer<typeof wireRecordSchema>, WireRecord> = true;
void wireMatches;

/**
 * Written by a relay only — never accepted from the tap, never in a capture log: past its limit with no data left to
 * evict, the relay's store let go of a connection's request body, or of a whole ended connection (see
 * relay/capture-store.ts). A watcher's copy of the capture does the same (retirement.ts).
 */
export interface RetiredRecord {
  kind: 'retired';
  conn: string;
  t: number;
  what: 'request-body' | 'connection';
}
export const retiredRecordSchema = z.strictObject({
  kind: z.literal('retired'),
  conn: z.string(),
  t: z.number(),
  what: z.enum(['request-body', 'connection']),
});
/** What a relay forwards: what the tap sent, and its store's retirements. */
export type RelayRecord = WireRecord | RetiredRecord;
export const relayRecordSchema = z.discriminatedUnion('kind', [
  connectionSchema, chunkSchema, messageSchema, endSchema, evictedSchema, noticeSchema, bytesRecordSchema, retiredRecordSchema,
]);
const relayMatches: Same<z.infer<typeof relayRecordSchema>, RelayRecord> = true;
void relayMatches;

// Compile-time proof that the schemas and the contract in model.ts describe the same shapes.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const recordsMatch: Same<z.infer<typeof captureRecordSchema>, PageRecord> = true;
const headerMatches: Same<z.infer<typeof captureHeaderSchema>, CaptureHeader> = true;
void recordsMatch;
void headerMatches;

// ── Hop 1: tap → relay (private MessagePort, batched) ──────────────────────────────────────────────
/** Records per tap batch, at most (the relay's fast path checks the same limit, see relay/tap-batch.ts). */
export const MAX_TAP_BATCH_RECORDS = 100_000;
export const tapToRelaySchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('records'),
    records: z.array(wireRecordSchema).max(MAX_TAP_BATCH_RECORDS),
    /** The batch's number (0, 1, …): the leave hand-off may overtake batches still on the port (see tap/handshake.ts). */
    seq: z.number().int().nonnegative().optional(),
  }),
]);
export type TapToRelay = z.infer<typeof tapToRelaySchema>;

// ── Hop 1 back: relay → tap ──────────────────────────────────────────────────────────────────────────
export const relayToTapSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('config'),
    /** false = the user switched capture off for this site: the tap stops recording. */
    enabled: z.boolean(),
    /** Extra URL patterns captured whatever their content type (substring, `*` wildcards). */
    includeUrls: z.array(z.string()),
  }),
]);
export type RelayToTap = z.infer<typeof relayToTapSchema>;

// ── Hop 2: relay → background (runtime.Port named 'relay') ──────────────────────────────────────────
const documentInfo = {
  /** Random id of this document's relay (one per page load per frame). */
  docId: z.string().min(1).max(100),
  frameUrl: z.string(),
  isTop: z.boolean(),
  /** Origin of the top-level document, the key of the per-site on/off switch. */
  siteOrigin: z.string(),
  siteEnabled: z.boolean(),
};
export const relayToBackgroundSchema = z.discriminatedUnion('type', [
  /** First message on a new port: who I am. The background answers 'attach' or 'detach'. */
  z.strictObject({ type: z.literal('hello'), ...documentInfo }),
  /** Everything this document captured so far (sent when a panel attaches or after clear). `dropped`: the invalid
   *  messages its relay refused (DropCounter) and the records its store refused (of no connection it knows, after
   *  their connection's end, a repeated connection). */
  z.strictObject({ type: z.literal('snapshot'), ...documentInfo, records: z.array(wireRecordSchema), dropped: z.number().int() }),
  /** Live records, only while attached. */
  z.strictObject({ type: z.literal('records'), docId: z.string(), records: z.array(relayRecordSchema) }),
]);
export type RelayToBackground = z.infer<typeof relayToBackgroundSchema>;
/** One-shot (runtime.sendMessage, no port): what this document's capture holds now — 0: it is going away — and
 *  whether it would hold more if it could (it evicted data, or a stream is still open). */
export const relayUsageSchema = z.strictObject({ type: z.literal('usage'), docId: z.string().min(1).max(100), bytes: z.number().int().min(0), wantsMore: z.boolean() });
export type RelayUsage = z.infer<typeof relayUsageSchema>;
export type DocumentInfo = Omit<Extract<RelayToBackground, { type: 'hello' }>, 'type'>;

// ── Hop 2 back: background → relay (over the relay's port, or tabs.sendMessage to every frame) ──────
export const backgroundToRelaySchema = z.discriminatedUnion('type', [
  /** A panel watches this tab: (connect and) send a snapshot, then live records. */
  z.strictObject({ type: z.literal('attach') }),
  /** Nobody watches this tab: stop sending, let the service worker sleep. */
  z.strictObject({ type: z.literal('detach') }),
  /** Drop what was captured (open connections keep their connection record). */
  z.strictObject({ type: z.literal('clear') }),
  /** Top frame only: answer with the document URL (used by tests and the panel header). */
  z.strictObject({ type: z.literal('ping') }),
  /** The tab's documents together hold more than the cap: this document's limit (null: lifted). Answered with true
   *  by the document named, so the background learns which documents are gone. */
  z.strictObject({ type: z.literal('limit'), docId: z.string(), bytes: z.number().int().positive().nullable() }),
]);
export type BackgroundToRelay = z.infer<typeof backgroundToRelaySchema>;

// ── Hop 3: panel → background (runtime.Port named 'panel:<tabId>') ──────────────────────────────────
export const panelToBackgroundSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('clear') }),
  /** Ask every document of the tab for a fresh snapshot. */
  z.strictObject({ type: z.literal('resync') }),
]);
export type PanelToBackground = z.infer<typeof panelToBackgroundSchema>;

// ── Hop 3 back: background → panel ───────────────────────────────────────────────────────────────────
const documentRef = { frameId: z.number().int(), ...documentInfo };
export const backgroundToPanelSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('snapshot'), ...documentRef, records: z.array(wireRecordSchema), dropped: z.number().int() }),
  z.strictObject({ type: z.literal('records'), docId: z.string(), records: z.array(relayRecordSchema) }),
  /** The document unloaded (navigation, iframe removed): its relay and its memory are gone. */
  z.strictObject({ type: z.literal('document-gone'), docId: z.string(), isTop: z.boolean() }),
  /**
   * Whether the tab's top document runs our relay. It does not when the page was loaded before the extension was
   * installed, updated or reloaded, or when extensions may not run there (data: URLs, the Web Store, chrome://).
   */
  z.strictObject({ type: z.literal('page-reach'), reachable: z.boolean() }),
]);
export type BackgroundToPanel = z.infer<typeof backgroundToPanelSchema>;

// ── DevTools log ⇄ panel (BroadcastChannel `devtoolsLogChannel(tabId)`, between extension pages) ─────────
// The extension's DevTools page reads the requests the tap cannot see (a Worker's) from DevTools' network log
// (devtools-log.ts) and holds them as one document of the tab, which a panel of that tab asks for like a relay's.
export const devtoolsLogChannel = (tabId: number): string => `replyscope-devtools-log:${tabId}`;
const devtoolsDocument = {
  docId: z.string().min(1).max(100),
  /** The inspected page's URL and origin (the origin is the key of the per-site switch). */
  frameUrl: z.string(),
  siteOrigin: z.string(),
  siteEnabled: z.boolean(),
};
export const devtoolsLogToPanelSchema = z.discriminatedUnion('type', [
  /** All the log holds for the page shown now (an answer to `want`, or after `clear`). */
  z.strictObject({ type: z.literal('snapshot'), ...devtoolsDocument, records: z.array(captureRecordSchema) }),
  z.strictObject({ type: z.literal('records'), docId: z.string(), records: z.array(captureRecordSchema) }),
  /** The inspected tab navigated: that page's log is history (a new document follows). */
  z.strictObject({ type: z.literal('gone'), docId: z.string() }),
]);
export type DevtoolsLogToPanel = z.infer<typeof devtoolsLogToPanelSchema>;
/** As posted: an unknown time (NaN) is null on the channel, as in a capture log (the check reads it back as NaN). */
export type DevtoolsLogWire = z.input<typeof devtoolsLogToPanelSchema>;
export const panelToDevtoolsLogSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('want') }),
  z.strictObject({ type: z.literal('clear') }),
]);
export type PanelToDevtoolsLog = z.infer<typeof panelToDevtoolsLogSchema>;

/**
 * Counts messages a receiver refused because they failed its check, per hop, so a flood of junk is visible instead of
 * silent. Only those: what a receiver drops by design (a tap batch that came after the leave hand-off, see
 * relay/tap-intake.ts) is not invalid and is not counted here — the panel shows this count as "invalid".
 */
export class DropCounter {
  readonly byHop = new Map<string, number>();
  lastError = '';
  note(hop: string, error: string): void {
    this.byHop.set(hop, (this.byHop.get(hop) ?? 0) + 1);
    this.lastError = `${hop}: ${error}`;
  }
  total(): number {
    let n = 0;
    for (const v of this.byHop.values()) n += v;
    return n;
  }
}

/** Parses `data` with `schema`; on mismatch counts a drop under `hop` and returns undefined. */
export function acceptMessage<T>(schema: z.ZodType<T>, data: unknown, drops: DropCounter, hop: string): T | undefined {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  drops.note(hop, issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid');
  return undefined;
}
