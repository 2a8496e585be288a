// Analysis: capture records in, the panel's/CLI's read model out. Incremental — live records are pushed as they
// arrive and only the connections they touch are recomputed — and deterministic: the same records always give the
// same views, so an exported capture log replays identically anywhere.
import type { Capture, CaptureRecord, NavigationRecord, NoticeRecord } from '../capture/model.ts';
import { blindSpotNotice } from '../capture/notices.ts';
import { ConnectionAnalysis } from './connection-analysis.ts';
import { findResume } from './stream-resume.ts';
import type { ConnectionView } from './types.ts';

/** Notices kept per capture (the tap bounds its own; an imported file may hold any number). */
const MAX_PAGE_NOTICES = 100;

/** A page boundary in the connection list: the connections from index `before` on came after this navigation. */
export interface PageBoundary {
  t: number;
  url: string;
  before: number;
}

export class CaptureAnalyzer {
  private readonly conns = new Map<string, ConnectionAnalysis>();
  private readonly pageNotices: NoticeRecord[] = [];
  private readonly boundaries: PageBoundary[] = [];
  /** The tap's note on each socket it went on to record ("…is recorded once it carries…"): not shown, the connection is. */
  private readonly recordedSockets = new Set<string>();

  /** Apply records in arrival order; returns the ids of the connections they changed. */
  push(records: readonly CaptureRecord[]): string[] {
    const changed = new Set<string>();
    for (const r of records) {
      if (r.kind === 'navigation') {
        this.addBoundary(r);
        continue;
      }
      if (r.kind === 'notice') {
        const c = r.conn === undefined ? undefined : this.conns.get(r.conn);
        if (c) {
          c.addNotice(r);
          changed.add(r.conn as string);
        } else if (r.conn === undefined && this.pageNotices.length < MAX_PAGE_NOTICES) this.pageNotices.push(r);
        continue;
      }
      if (r.kind === 'connection') {
        const existing = this.conns.get(r.id);
        if (existing) {
          existing.record = r; // a later record of the same connection carries the response head
          existing.invalidate();
        } else {
          const c = new ConnectionAnalysis(r, this.boundaries.length);
          // A request that resumes an earlier stream links to it as it stood when the request was made: now.
          const link = findResume(r, c.page, this.latestFirst());
          if (link) {
            c.resumeFrom(link);
            const from = link.from;
            if (from) {
              from.resumedBy({ conn: r.id, eventId: link.view.eventId, events: link.view.events ?? 0, continuing: link.view.continuing ?? [] });
              changed.add(from.record.id);
            }
          }
          this.conns.set(r.id, c);
        }
        if (r.transport === 'websocket') this.recordedSockets.add(blindSpotNotice('WebSocket', r.url, r.isSubframe ? r.frameUrl : undefined));
        changed.add(r.id);
        continue;
      }
      const c = this.conns.get(r.conn);
      if (!c) continue; // data of a connection whose head was evicted or never seen
      changed.add(r.conn);
      switch (r.kind) {
        case 'chunk':
          c.beforeData();
          c.noteBody(r);
          c.ingest(c.reader.pushChunk(r));
          break;
        case 'message':
          c.beforeData();
          if (r.type === 'send') c.requestSent(r.t); // (a WebSocket's: what the page asked for comes after it)
          c.ingest(c.reader.pushMessage(r));
          break;
        case 'end':
          c.beforeData();
          c.finish(r);
          break;
        case 'evicted':
          // Evicted after this analyzer read it (a live panel): nothing is missing here, only in the page's store.
          if (c.hasData) break;
          c.evictions++;
          // A digest counts the client events exactly (cumulative); older logs only know records.
          c.evictedEvents = r.derived ? r.derived.events : c.evictedEvents + r.messages + r.chunks;
          c.evictedRecordsOnly = r.derived === undefined;
          if (r.derived === undefined && r.chunks + r.messages === 0) c.evictedBytes += r.bytes;
          c.noteEviction(r);
          c.invalidate();
          break;
      }
    }
    return [...changed];
  }

  /** The connections so far, the latest first (made only when a resuming request asks). */
  private *latestFirst(): Generator<ConnectionAnalysis> {
    const all = [...this.conns.values()];
    for (let i = all.length - 1; i >= 0; i--) yield all[i];
  }

  connections(): ConnectionView[] {
    return [...this.conns.values()].map((c) => c.build());
  }

  /**
   * Where the tab's top frame loaded a new page, by position among connections() (connections are listed in the order
   * they were declared, so a boundary falls between the last connection declared before it and the first after).
   */
  navigations(): readonly PageBoundary[] {
    return this.boundaries;
  }

  private addBoundary(r: NavigationRecord): void {
    this.boundaries.push({ t: r.t, url: r.url, before: this.conns.size });
  }

  /** The notices that belong to no connection (what the page did that the capture cannot see, import notes), in order. */
  notices(): readonly NoticeRecord[] {
    return this.recordedSockets.size === 0 ? this.pageNotices : this.pageNotices.filter((n) => !this.recordedSockets.has(n.text));
  }

  connection(id: string): ConnectionView | undefined {
    return this.conns.get(id)?.build();
  }

  /**
   * How many frames connection `id` has read so far, without building its view: the CLI pushes a capture log's records
   * one at a time and asks after each, to know the line of the record that completed each frame (annotations' line=).
   */
  frameCount(id: string): number {
    return this.conns.get(id)?.reader.frames.length ?? 0;
  }

  /** Whether connection `id` was declared (its record read), without building its view. */
  hasConnection(id: string): boolean {
    return this.conns.has(id);
  }
}

/** Analyse a whole capture. Connections still open at the end of the capture are read as far as they got. */
export function analyzeCapture(capture: Capture): ConnectionView[] {
  const a = new CaptureAnalyzer();
  a.push(capture.records);
  return a.connections();
}
