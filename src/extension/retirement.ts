// What a relay's store lets go of once evicting data is not enough, and how a watcher's copy follows it.
//
// The store evicts data (chunks, messages) oldest connection first. Connection records were never evicted: a chat
// page posts its whole conversation with every turn (request bodies are kept up to 1 MiB each), so after enough
// turns those bodies alone passed the limit — every new chunk then evicted all data, the newest streams included,
// and the capture still grew. Now a request body is evicted like data, in the order it came — before its own
// connection's data, oldest connection first — and the bodies together may hold half the limit, past which the
// oldest go before any data (a stub stays, marked `abridged`: the size, and what a client reads of the body — see
// withoutRequestBody); when the records of ended connections with nothing left still pass the limit, the oldest go
// whole (a note at the top of the capture counts them). The relay tells watchers with a `retired` record
// (messages.ts); they apply it here to their copy, so an export of it reads like the relay's own snapshot.
import type { CaptureRecord, ConnectionRecord, NoticeRecord } from '../core/capture/model.ts';
import { piProxyRequestModel, type RequestBodyText } from '../core/capture/stream-request.ts';
import type { RetiredRecord, WireRecord } from './messages.ts';

/** The capture cost of a request body, as the store counts it (its kept text or base64). */
export function requestBodyCost(rec: ConnectionRecord): number {
  return (rec.requestBody?.text?.length ?? 0) + (rec.requestBody?.base64?.length ?? 0);
}

/** The longest model field (its JSON) a stub keeps: a page could pad one to megabytes. */
const MODEL_FIELD_MAX = 1024;

/**
 * What pi's streamProxy reads of its own request, as a body text that still reads as that request: analysis tells
 * the proxy client by it (dialect.ts) and starts the reply's message from the model's api, provider and id
 * (message-state.ts) — without them a pi chat whose bodies the cap let go was read as another client (pi-ai's
 * forwarded events) or lost its model in every reply. The context, the conversation a chat posts anew each turn,
 * is what goes (of a body the tap's cap cut, the model its head shows). Undefined for any other body.
 */
function piRequestKept(body: RequestBodyText): string | undefined {
  const model = piProxyRequestModel(body);
  if (model === undefined) return undefined;
  const kept: Record<string, unknown> = {};
  for (const k of ['api', 'provider', 'id']) {
    const json = JSON.stringify(model[k]);
    if (json !== undefined && json.length <= MODEL_FIELD_MAX) kept[k] = model[k];
  }
  return kept.api === undefined ? undefined : JSON.stringify({ model: kept, context: {} });
}

/**
 * The connection record without its request body's content: a stub marked `abridged` (only this writes it, so a
 * reader can say why) keeps the size and, for pi's streamProxy, what that client reads of it (piRequestKept). An
 * empty body, or one that is no more than that, stays as it is.
 */
export function withoutRequestBody(rec: ConnectionRecord): ConnectionRecord {
  const body = rec.requestBody;
  if (!body || body.abridged || requestBodyCost(rec) === 0) return rec;
  const pi = piRequestKept(body);
  if (pi !== undefined && pi.length >= (body.text?.length ?? 0)) return rec;
  return { ...rec, requestBody: { ...(pi !== undefined ? { text: pi } : {}), size: body.size, truncated: true, abridged: true } };
}

/** Said at the top of a document's capture once connections went whole. */
export function retiredConnectionsNotice(count: number, t: number): NoticeRecord {
  return {
    kind: 'notice', t, level: 'info',
    text: `${count === 1 ? 'An earlier connection was' : `${count} earlier connections were`} let go whole to keep the capture within its memory cap (ended, their streams already evicted)`,
  };
}

// The whole text, anchored: a page's own note (a blind spot names a URL the page chose) cannot pass for it.
const RETIRED_NOTICE = /^(?:An earlier connection was|(\d+) earlier connections were) let go whole to keep the capture within its memory cap \(ended, their streams already evicted\)$/;

/** How many connections that top note counts; undefined for any other record. */
export function retiredConnectionsCount(rec: CaptureRecord | WireRecord): number | undefined {
  if (rec.kind !== 'notice' || rec.conn !== undefined) return undefined;
  const m = RETIRED_NOTICE.exec(rec.text);
  return m ? (m[1] === undefined ? 1 : Number(m[1])) : undefined;
}

/**
 * A watcher's copy of one document's records after `retired`: the connection record stubbed, or the connection's
 * records gone and the top note counting it. The count goes on from the note the copy holds — not from a tally of
 * its own: the copy may have started from a snapshot (a panel opened late, or handed the capture anew), whose note
 * already counts what went before.
 */
export function applyRetired(records: CaptureRecord[], r: RetiredRecord): CaptureRecord[] {
  if (r.what === 'request-body') {
    const i = records.findIndex((x) => x.kind === 'connection' && x.id === r.conn);
    if (i !== -1) records[i] = withoutRequestBody(records[i] as ConnectionRecord);
    return records;
  }
  let counted = 0;
  const kept = records.filter((x) => {
    const n = retiredConnectionsCount(x);
    if (n !== undefined) counted = n;
    return n === undefined && !(x.kind === 'connection' ? x.id === r.conn : 'conn' in x && x.conn === r.conn);
  });
  return [retiredConnectionsNotice(counted + 1, r.t), ...kept];
}
