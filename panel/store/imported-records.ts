// What the panel holds of its own: the records of the files the user imported. A capture the source sends anew — a
// restarted service worker's, a navigation's, the memory cap's compaction (panel-compaction.ts), the viewer's
// preloaded file — holds the source's records only: the store's reset replaced the imports with the rest, so an
// imported file vanished from a live panel whenever the extension sent its capture again, or its label did (a file
// imported while paused came back from the resume without it). They are carried into the new capture, each where it
// stood among the rows, until the user's Clear.
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { remapConnectionIds } from './import-merge.ts';

/** A record's place among the rows, as both captures name it: a connection's declaration, a page boundary. */
function placeOf(r: CaptureRecord): string | undefined {
  if (r.kind === 'connection') return `c:${r.id}`;
  if (r.kind === 'navigation') return `n:${r.t}:${r.url}`;
  return undefined;
}

export class ImportedRecords {
  /**
   * The imported connections, by their id in the capture being read (or held for resume), and the file each came
   * from (undefined: the import named none).
   */
  private readonly conns = new Map<string, string | undefined>();
  /** Imported records of no connection: a file's notes, its page boundaries. */
  private readonly loose = new Set<CaptureRecord>();

  /** An import's records (its connection ids made distinct already), read from `file`. */
  add(recs: readonly CaptureRecord[], file: string | undefined): void {
    for (const r of recs) {
      if (r.kind === 'connection') this.conns.set(r.id, file);
      else if (!('conn' in r) || r.conn === undefined) this.loose.add(r);
    }
  }

  /** Whether `r` came from an import. */
  has(r: CaptureRecord): boolean {
    if (r.kind === 'connection') return this.conns.has(r.id);
    return 'conn' in r && r.conn !== undefined ? this.conns.has(r.conn) : this.loose.has(r);
  }

  /** The file each imported connection came from, by id (those the import named one for). */
  *labels(): Iterable<[string, string]> {
    for (const [id, file] of this.conns) if (file !== undefined) yield [id, file];
  }

  clear(): void {
    this.conns.clear();
    this.loose.clear();
  }

  /**
   * `next`, the capture the source sent anew, with the imported records of `before` (the capture it replaces): each
   * placed right after the connection or page boundary it came after in `before` — the nearest one `next` still has,
   * else first — so the rows keep their order (connections are listed as they are declared, and named by their
   * place: "resumes #2"). An imported connection whose id `next` uses (the viewer's preloaded file, read after an
   * import from the same tab) is renamed, as an import is: the ids here follow.
   */
  carry(before: readonly CaptureRecord[], next: readonly CaptureRecord[]): CaptureRecord[] {
    if (this.conns.size === 0 && this.loose.size === 0) return [...next];
    const places = new Set<string>();
    const ids = new Set<string>();
    for (const r of next) {
      const place = placeOf(r);
      if (place !== undefined) places.add(place);
      if (r.kind === 'connection') ids.add(r.id);
    }
    const imported: CaptureRecord[] = [];
    const after: (string | undefined)[] = [];
    let place: string | undefined;
    for (const r of before) {
      if (this.has(r)) {
        imported.push(r);
        after.push(place);
        continue;
      }
      const p = placeOf(r);
      if (p !== undefined && places.has(p)) place = p;
    }
    const carried = remapConnectionIds(imported, ids);
    const files = new Map(this.conns);
    this.conns.clear();
    const runs = new Map<string | undefined, CaptureRecord[]>();
    carried.forEach((r, i) => {
      if (r.kind === 'connection') this.conns.set(r.id, files.get((imported[i] as typeof r).id));
      let run = runs.get(after[i]);
      if (!run) runs.set(after[i], (run = []));
      run.push(r);
    });
    const out: CaptureRecord[] = [];
    const put = (recs: readonly CaptureRecord[]) => {
      for (const r of recs) out.push(r); // (no spread: an import's run may be past what a call's arguments hold)
    };
    put(runs.get(undefined) ?? []);
    for (const r of next) {
      out.push(r);
      const p = placeOf(r);
      const run = p === undefined ? undefined : runs.get(p);
      if (run) {
        put(run);
        runs.delete(p);
      }
    }
    return out;
  }
}
