// What the panel says of a stream resumed on a new connection (a Last-Event-ID request, or one with the id in its URL's
// query, core stream-resume.ts): the resuming connection names the one it continues ("resumes #1 from id 42", "… from
// id 42 in the query"), the earlier one who resumed it ("resumed by #2"). Connections are named by their position in the list, 1-based — the list shows URLs, and two requests of a
// resumed stream share theirs — and each "#N" selects that connection.
import type { ConnectionView, ResumedByView, ResumeView } from '../../src/core/analysis/types.ts';
import { connectionName, shownId, viaTitle, viaWords, type ConnectionNumbers } from '../lib/resume-words.ts';
import type { PanelStore } from '../store/store.ts';
import { Icon } from './Icon.tsx';

/** "#3", a button that selects that connection (inside a row: it does not select the row as well). */
function GoTo({ store, numbers, id }: { store: PanelStore; numbers: ConnectionNumbers; id: string }) {
  const name = connectionName(numbers, id);
  return (
    <button class="conn-link" aria-label={`Show connection ${name}`} title={`Show connection ${name}`}
      onClick={(e) => {
        e.stopPropagation();
        store.selectConnection(id);
      }}>{name}</button>
  );
}

/** At a reply's last step, on a connection that broke off before it finished: the page's stream went on elsewhere. */
export function ContinuedNote({ by, store, numbers }: { by: ResumedByView; store: PanelStore; numbers: ConnectionNumbers }) {
  return (
    <> The page's stream went on: <GoTo store={store} numbers={numbers} id={by.conn} /> resumed it from id {shownId(by.eventId)} and continues this reply.</>
  );
}

/** The link in a connection row, after its URL: "↻ resumes #1 from id "42"" (" in the query"), "↻ resumed by #2". */
export function ResumeBadge({ c, store, numbers }: { c: ConnectionView; store: PanelStore; numbers: ConnectionNumbers }) {
  const r = c.resumes;
  const by = c.resumedBy ?? [];
  if (!r && by.length === 0) return null;
  return (
    <span class="resume-note dim" data-testid="resume-note">
      {' '}<Icon name="resume" />{' '}
      {r ? (r.conn !== undefined
        ? <>resumes <GoTo store={store} numbers={numbers} id={r.conn} /> from id {shownId(r.eventId)}{r.query !== undefined ? <span title={viaTitle(r)}>{viaWords(r)}</span> : null}</>
        : <span title={`No captured connection carried this id: the replies start mid-way${r.query !== undefined ? `\n${viaTitle(r)}` : ''}`}>resumes id {shownId(r.eventId)}{viaWords(r)}, not captured</span>) : null}
      {r && by.length ? ' · ' : null}
      {by.length ? <>resumed by {by.map((b, i) => <span key={b.conn}>{i ? ', ' : ''}<GoTo store={store} numbers={numbers} id={b.conn} /></span>)}</> : null}
    </span>
  );
}

/** Where the request sent the id: "Last-Event-ID" (its header), or "query lastEventId" (its URL's query parameter). */
const source = (r: ResumeView) => (r.query === undefined ? 'Last-Event-ID' : `query ${r.query}`);

/** The connection details' rows: what the request continues, with how much of it, and who continued this stream. */
export function ResumeDetails({ c, store, numbers }: { c: ConnectionView; store: PanelStore; numbers: ConnectionNumbers }) {
  const r = c.resumes;
  const by = c.resumedBy ?? [];
  if (!r && by.length === 0) return null;
  const continuing = r?.continuing ?? [];
  return (
    <>
      {r ? (
        <>
          <span class="k">Resumes</span>
          <span data-testid="resumes">
            {r.conn !== undefined ? (
              <>
                <GoTo store={store} numbers={numbers} id={r.conn} /> from id {shownId(r.eventId)} ({source(r)}) — the page had {r.events} of its events
                {continuing.length ? `; ${continuing.length === 1 ? 'reply' : 'replies'} ${continuing.join(', ')} ${continuing.length === 1 ? 'continues' : 'continue'} here` : '; no reply was under way'}
                {r.undispatched ? <span class="warn"> · that id's frame was never dispatched: its event is lost to the page</span> : null}
              </>
            ) : (
              <span class="warn">a stream from id {shownId(r.eventId)} ({source(r)}) that was not captured: its replies start mid-way</span>
            )}
          </span>
        </>
      ) : null}
      {by.length ? (
        <>
          <span class="k">Resumed by</span>
          <span data-testid="resumed-by">
            {by.map((b, i) => <span key={b.conn}>{i ? ' · ' : ''}<GoTo store={store} numbers={numbers} id={b.conn} /> from id {shownId(b.eventId)}, after {b.events} events</span>)}
          </span>
        </>
      ) : null}
    </>
  );
}
