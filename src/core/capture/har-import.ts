// HAR import: our own exports (exact, from `_replyscope`) and browser HARs such as Chrome's "Save all as HAR with
// content". Only stream entries are imported (text/event-stream, NDJSON types, EventSource and WebSocket entries); a
// notice says how many others were skipped. Browser HARs carry no chunk times: the body becomes chunks at the message
// times when `_eventSourceMessages` line up with the body's frames, else one chunk at the end of the entry. A browser's
// entries have their credentials masked as the tap masks them (har-import-mask.ts); our own records are exact.
// The parts: a HAR's fields as read (har-import-fields.ts), a browser's entries (har-import-browser.ts) and their
// answers (har-import-answer.ts).
import type { Capture, CaptureHeader, CaptureRecord } from './model.ts';
import { parseHeader, parseRecord } from './schemas.ts';
import { describeZodError } from './capture-log.ts';
import { ImportMasking } from './har-import-mask.ts';
import { HarImportError, isObj, pushAll, str, type Obj } from './har-import-fields.ts';
import { browserEntries } from './har-import-browser.ts';

// Defined with the fields, as the parts throw it too; a caller takes it from here, with importHar.
export { HarImportError };

function ownRecords(value: unknown, where: string, field = 'records'): [number, CaptureRecord][] {
  if (!Array.isArray(value)) throw new HarImportError(`${where}: _replyscope.${field} is not an array`);
  return value.map((pair, k) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number') {
      throw new HarImportError(`${where}: _replyscope.${field}[${k}] is not a [position, record] pair`);
    }
    try {
      return [pair[0], parseRecord(pair[1])] as [number, CaptureRecord];
    } catch (e) {
      throw new HarImportError(`${where}: _replyscope.${field}[${k}]: ${describeZodError(e, String(pair[1]?.kind))}`);
    }
  });
}

/**
 * An entry's own records with its connection id made unique. Two of our HARs merged into one (a HAR tool, a hand
 * edit) can both hold "tab1:1": their records were read as one connection — both bodies interleaved, a reply started
 * twice, every block duplicated — where a capture log with that id twice is refused. The later one becomes "tab1:1~2".
 */
function distinctIds(own: [number, CaptureRecord][], declared: Set<string>): [number, CaptureRecord][] {
  const ids = new Map<string, string>();
  for (const [, r] of own) {
    if (r.kind !== 'connection') continue;
    let id = r.id;
    for (let n = 2; declared.has(id); n++) id = `${r.id}~${n}`;
    declared.add(id);
    if (id !== r.id) ids.set(r.id, id);
  }
  if (ids.size === 0) return own;
  return own.map(([k, r]): [number, CaptureRecord] => {
    if (r.kind === 'connection') return [k, { ...r, id: ids.get(r.id) ?? r.id }];
    if ('conn' in r && r.conn !== undefined && ids.has(r.conn)) return [k, { ...r, conn: ids.get(r.conn)! } as CaptureRecord];
    return [k, r];
  });
}

/** Imports a parsed HAR object (see module comment). Throws HarImportError on a malformed HAR. */
export function importHar(har: unknown): Capture {
  if (!isObj(har) || !isObj(har.log) || !Array.isArray(har.log.entries)) {
    throw new HarImportError('not a HAR file: expected {"log": {"entries": [...]}}');
  }
  const log = har.log;
  const entries = log.entries as unknown[];
  const own = isObj(log._replyscope) ? log._replyscope : undefined;
  if (own) {
    let header: CaptureHeader;
    try {
      header = parseHeader(own.header);
    } catch (e) {
      throw new HarImportError(`HAR log._replyscope.header: ${describeZodError(e, 'header')}`);
    }
    const all = ownRecords(own.records, 'HAR log');
    if (own.navigations !== undefined) {
      for (const [i, [at, r]] of ownRecords(own.navigations, 'HAR log', 'navigations').entries()) {
        if (r.kind !== 'navigation') throw new HarImportError(`HAR log: _replyscope.navigations[${i}] is a ${JSON.stringify(r.kind)} record, not a navigation`);
        all.push([at, r]);
      }
    }
    const others: number[] = [];
    const declared = new Set<string>();
    entries.forEach((e, i) => {
      if (isObj(e) && isObj(e._replyscope)) pushAll(all, distinctIds(ownRecords(e._replyscope.records, `HAR entry ${i}`), declared));
      else others.push(i);
    });
    all.sort((a, b) => a[0] - b[0]);
    const records = all.map(([, r]) => r);
    // Entries without our records (a HAR merged with a browser's, or edited by hand) are read as a browser's, after
    // ours: ignoring them lost them without a word.
    if (others.length) {
      const taken = new Set(records.flatMap((r) => (r.kind === 'connection' ? [r.id] : [])));
      const masking = new ImportMasking();
      pushAll(records, browserEntries(entries, others, { pageUrls: pageUrlsOf(pagesOf(log)), taken, exactText: false, masking }).records);
      pushMaskingNote(records, masking);
    }
    return { header, records };
  }
  const pages = pagesOf(log);
  const pageUrls = pageUrlsOf(pages);
  const masking = new ImportMasking();
  const creator = isObj(log.creator) ? log.creator : {};
  const browser = isObj(log.browser) ? log.browser : undefined;
  const firstStart = entries.map((e) => (isObj(e) ? str(e.startedDateTime) : undefined)).find((s) => s !== undefined);
  // Our own export without its `_replyscope` fields (stripped, or written by an older version) has exact text.
  const exactText = str(creator.name) === 'Replyscope';
  const byId = new Map(pages.flatMap((p) => (str(p.id) !== undefined ? [[str(p.id) as string, p] as [string, Obj]] : [])));
  const { records, firstPage } = browserEntries(entries, entries.map((_, i) => i), { pageUrls, pages: byId, exactText, masking });
  // The capture's page is its first stream's: no boundary is drawn before that one, and a first page without any (a
  // login page before the chat) named the streams of the next.
  const page = firstPage ?? pages[0];
  const header: CaptureHeader = {
    kind: 'header',
    format: 'replyscope-capture',
    version: 1,
    tool: `HAR import (${[str(creator.name), str(creator.version)].filter(Boolean).join(' ') || 'unknown creator'})`,
    created: str(pages[0]?.startedDateTime) ?? firstStart ?? new Date(0).toISOString(),
    ...(page && urlLike(page.title) ? { pageUrl: masking.url(str(page.title) as string) } : {}),
    ...(browser ? { browser: [str(browser.name), str(browser.version)].filter(Boolean).join(' ') } : {}),
  };
  pushMaskingNote(records, masking);
  return { header, records };
}

/** The note of the credentials the import masked, if it masked any (har-import-mask.ts). */
function pushMaskingNote(records: CaptureRecord[], masking: ImportMasking): void {
  const text = masking.note();
  if (text !== undefined) records.push({ kind: 'notice', t: Number.NaN, level: 'info', text });
}

function pagesOf(log: Obj): Obj[] {
  return Array.isArray(log.pages) ? log.pages.filter(isObj) : [];
}

/** Page id → the page's URL (Chrome writes it as the title; Playwright the document's title: not a URL, not used). */
function pageUrlsOf(pages: Obj[]): Map<string, string> {
  return new Map(pages.map((p) => [str(p.id) ?? '', urlLike(p.title) ? (p.title as string) : '']));
}

const urlLike = (v: unknown): boolean => typeof v === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(v);
