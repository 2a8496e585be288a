// Importing a file next to a capture that is already shown: connection ids are unique only within one capture, so
// ids that clash with ones already present are renamed (`<id>~2`, `~3`…) on every record that refers to them.
import type { CaptureRecord } from '../../src/core/capture/model.ts';

export function remapConnectionIds(records: readonly CaptureRecord[], taken: ReadonlySet<string>): CaptureRecord[] {
  const used = new Set(taken);
  const rename = new Map<string, string>();
  for (const r of records) {
    if (r.kind !== 'connection' || rename.has(r.id)) continue;
    let id = r.id;
    for (let n = 2; used.has(id); n++) id = `${r.id}~${n}`;
    used.add(id);
    rename.set(r.id, id);
  }
  return records.map((r) => {
    if (r.kind === 'connection') {
      const id = rename.get(r.id)!;
      return id === r.id ? r : { ...r, id };
    }
    if ('conn' in r && r.conn !== undefined) {
      const id = rename.get(r.conn);
      return id === undefined || id === r.conn ? r : { ...r, conn: id };
    }
    return r;
  });
}
