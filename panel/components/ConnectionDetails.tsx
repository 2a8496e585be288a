// Request/response details of the selected connection (DevTools "Headers"): where the prompt and pi's model live.
import { formatBytes, formatMs } from '../lib/format.ts';
import { prettyJsonText } from '../lib/partial-json-view.ts';
import type { PanelStore } from '../store/store.ts';
import { connectionDuration } from './ConnectionList.tsx';
import { connectionNumbers } from '../lib/resume-words.ts';
import { ResumeDetails } from './ResumeNote.tsx';
import { evictedDetail } from '../lib/eviction-words.ts';
import { shownState } from '../lib/connection-state.ts';

function Headers({ title, headers }: { title: string; headers: [string, string][] | undefined }) {
  if (!headers?.length) return null;
  return (
    <div class="section">
      <h4>{title}</h4>
      <div class="kv mono" style={{ padding: 0 }}>
        {headers.flatMap(([k, v], i) => [
          <span class="k" key={`k${i}`}>{k}</span>,
          <span key={`v${i}`}>{v}</span>,
        ])}
      </div>
    </div>
  );
}

export function ConnectionDetails({ store }: { store: PanelStore }) {
  const c = store.selectedConnection.value;
  if (!c) return null;
  const r = c.record;
  const body = r.requestBody;
  // The relay's store let the content go for the memory cap (src/extension/retirement.ts); a stub of an older
  // version of it had no mark, only no content.
  const letGo = body !== undefined && (body.abridged === true || (body.text === undefined && body.base64 === undefined));
  const evicted = evictedDetail(c);
  const state = shownState(c.state, store.connectionFiles.get(r.id), store.backlog.value !== undefined);
  return (
    <div data-testid="connection-details">
      <div class="kv">
        <span class="k">URL</span>
        <span class="mono" style={{ wordBreak: 'break-all' }}>{r.url}</span>
        <span class="k">Transport</span>
        <span>{r.transport}{r.isSubframe ? ` · subframe ${r.frameUrl}` : ''}</span>
        <span class="k">Status</span>
        <span>{r.status ?? '—'} {r.statusText ?? ''}</span>
        <span class="k">End</span>
        <span class={state.cls} title={state.title}>{state.text}{c.end?.error ? ` — ${c.end.error}` : ''}</span>
        <span class="k">Received</span>
        <span>{formatBytes(c.bytes)} · {c.frames.length} frames · {c.events.length} events · {formatMs(connectionDuration(c))}</span>
        <ResumeDetails c={c} store={store} numbers={connectionNumbers(store.connections.value)} />
        {evicted !== undefined ? (<><span class="k">Evicted</span><span class="warn">{evicted}</span></>) : null}
      </div>
      {c.notes.map((n, i) => <div key={i} class="section warn">{n}</div>)}
      <Headers title="Request headers" headers={r.requestHeaders} />
      {body ? (
        <div class="section">
          <h4>Request body · {formatBytes(body.size)}{letGo ? ' (not kept)' : body.truncated ? ' (truncated)' : ''}</h4>
          {letGo ? (
            <p class="dim" data-testid="request-body-gone">
              Let go to keep the capture within its memory cap: request bodies are evicted oldest first, like the streams' data.
              {body.text !== undefined ? " Kept of it: what pi's client reads — its model (the context it posted is not kept):" : ''}
            </p>
          ) : null}
          {body.text !== undefined ? <pre>{prettyJsonText(body.text).text}</pre>
            : body.base64 !== undefined ? <pre>{`(binary, ${body.base64.length} base64 chars)`}</pre> : null}
        </div>
      ) : null}
      <Headers title="Response headers" headers={r.responseHeaders} />
      <ErrorBody store={store} />
    </div>
  );
}

/** An HTTP error answer's body: the server's message (no event shows it, see the store's errorBody). */
function ErrorBody({ store }: { store: PanelStore }) {
  const body = store.errorBody.value;
  if (!body) return null;
  return (
    <div class="section" data-testid="error-body">
      <h4>Response body · {formatBytes(body.bytes)}{body.cut ? ' (its start)' : ''}</h4>
      <pre>{prettyJsonText(body.text).text}</pre>
    </div>
  );
}
