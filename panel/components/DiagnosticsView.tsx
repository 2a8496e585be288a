// All diagnostics of the selected connection (or of every connection), grouped by code, with the catalogue's
// explanation and — where docs and reference code disagree — what the reference actually does. Each occurrence
// is a button that selects the connection and seeks the scrubber to the event; the events it relates, links beside it.
import type { Diagnostic, Severity } from '../../src/core/diagnostics/types.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { diagnosticDoc } from '../core-bridge.ts';
import { eventByIndex } from '../store/lookups.ts';
import type { PanelStore } from '../store/store.ts';
import { connectionName, connectionNumbers, withConnectionNames } from '../lib/resume-words.ts';
import { shortUrl } from '../lib/format.ts';
import { RelatedEvents } from './RelatedEvents.tsx';

interface Group {
  code: string;
  severity: Severity;
  items: { conn: ConnectionView; d: Diagnostic }[];
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function groupDiagnostics(conns: readonly ConnectionView[]): Group[] {
  const groups = new Map<string, Group>();
  for (const conn of conns) {
    for (const d of conn.diagnostics) {
      let g = groups.get(d.code);
      if (!g) groups.set(d.code, (g = { code: d.code, severity: d.severity, items: [] }));
      if (RANK[d.severity] < RANK[g.severity]) g.severity = d.severity;
      g.items.push({ conn, d });
    }
  }
  return [...groups.values()].sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.code.localeCompare(b.code));
}

export function DiagnosticsView({ store, scope }: { store: PanelStore; scope: 'connection' | 'all' }) {
  const sel = store.selectedConnection.value;
  const conns = scope === 'all' ? store.connections.value : sel ? [sel] : [];
  const groups = groupDiagnostics(conns);
  const numbers = connectionNumbers(store.connections.value);
  if (conns.length === 0) return <div class="empty">{scope === 'all' ? 'Nothing captured yet.' : 'Select a connection to see its diagnostics.'}</div>;
  if (groups.length === 0) return <div class="empty"><strong>No diagnostics</strong>Every event validated and every sequence followed the protocol.</div>;
  return (
    <div class="scroll" data-testid="diagnostics">
      {groups.map((g) => {
        const doc = diagnosticDoc(g.code);
        return (
          <section class="diag-group" key={g.code} data-code={g.code}>
            <h3>
              <span class={`badge ${g.severity}`}>{g.severity}</span>
              <span class="mono">{g.code}</span>
              {doc ? <span class="diag-title">{doc.title}</span> : null}
              <span class="dim">× {g.items.length}</span>
            </h3>
            {doc ? <p>{withCode(doc.explanation)}</p> : <p class="faint">No catalogue entry for this code.</p>}
            {doc?.reference ? <p class="ref">Reference behaviour: {withCode(doc.reference)}</p> : null}
            {g.items.slice(0, 200).map(({ conn, d }, i) => {
              const ev = d.ofConnection ? undefined : eventByIndex(conn, d.index);
              const select = (index: number) => {
                if (store.selectedConnId.value !== conn.record.id) store.selectConnection(conn.record.id);
                store.selectEvent(index);
              };
              // The connection's own (Diagnostic.ofConnection) name no event: a press selects the connection only.
              const selectOccurrence = () => (d.ofConnection ? store.selectConnection(conn.record.id) : select(d.index));
              return (
                // The related events beside the occurrence, not in it: a button in a button is no control to a
                // screen reader or the keyboard.
                <div class="diag-row" key={`${conn.record.id}:${d.index}:${i}`}>
                  <button class="diag-item" data-testid="diag-occurrence" onClick={selectOccurrence}>
                    <span class="mono dim" title={d.frame !== undefined ? `Frame ${d.frame} of the body; the event at or after it: #${d.index}` : d.ofConnection ? 'The connection as a whole, no one event' : undefined}>
                      {d.frame !== undefined ? `frame ${d.frame} → #${d.index}` : d.ofConnection ? 'connection' : `#${d.index}`}
                    </span>
                    <span class="mono diag-type" title={ev?.type}>{ev?.type ?? ''}</span>
                    <span class="diag-msg">{withConnectionNames(d.message, numbers)}</span>
                    {scope === 'all' ? (
                      // Named as the Connections list and its resume links name it ("#4 /api/stream"): four pi
                      // streams to one URL read alike, and the click jumped to one of them unannounced.
                      <span class="dim diag-conn" title={`Connection ${connectionName(numbers, conn.record.id)}: ${conn.record.url}`}>
                        {connectionName(numbers, conn.record.id)} {shortUrl(conn.record.url)}
                      </span>
                    ) : null}
                  </button>
                  <RelatedEvents conn={conn} related={d.related} onSelect={select} />
                </div>
              );
            })}
            {g.items.length > 200 ? <div class="dim">… and {g.items.length - 200} more</div> : null}
          </section>
        );
      })}
    </div>
  );
}

/** A catalogue text with its `backticked` names (a field, a header, a setting) set as code, as the README shows them. */
function withCode(text: string) {
  const parts = text.split('`');
  // An odd number of backticks leaves the text as it is: better a stray ` than half a sentence in code.
  if (parts.length % 2 === 0) return text;
  return parts.map((p, i) => (i % 2 === 1 ? <code key={i}>{p}</code> : p));
}
