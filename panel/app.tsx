// The panel app as a factory over a data source, so the same UI runs in DevTools, in a tab and as the standalone
// viewer (and in tests with any source). `createPanelApp(source, root)` mounts it and returns the store.
import { batch } from '@preact/signals';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ConnectionList } from './components/ConnectionList.tsx';
import { DiagnosticsView } from './components/DiagnosticsView.tsx';
import { EventList, EventToolbar } from './components/EventList.tsx';
import { ExportDialog } from './components/ExportDialog.tsx';
import { ReplyList } from './components/ReplyList.tsx';
import { Scrubber, scrubberKey } from './components/Scrubber.tsx';
import { SplitPane } from './components/SplitPane.tsx';
import { StepDetail } from './components/StepDetail.tsx';
import { Timeline } from './components/Timeline.tsx';
import { Toolbar } from './components/Toolbar.tsx';
import { loadInput } from './core-bridge.ts';
import type { PanelSource } from './sources/source.ts';
import { createPanelStore, type MainView, type PanelStore } from './store/store.ts';

/** Read files, sniff their format in the core, add them to the store. Errors become one status line each. */
export async function importFiles(store: PanelStore, files: Iterable<File>): Promise<void> {
  for (const file of files) {
    try {
      const capture = loadInput(new Uint8Array(await file.arrayBuffer()), file.name);
      const before = new Set(store.connections.value.map((c) => c.record.id));
      store.importCapture(capture);
      store.flushNow();
      const added = store.connections.value.filter((c) => !before.has(c.record.id));
      store.status.value = { text: `Imported ${file.name}: ${added.length} connection${added.length === 1 ? '' : 's'}`, level: 'info' };
      if (added.length && !store.selectedConnId.value) store.selectConnection(added[0].record.id);
    } catch (err) {
      store.status.value = { text: `Could not import ${file.name}: ${(err as Error).message}`, level: 'error' };
    }
  }
}

const isTextEntry = (t: EventTarget | null) =>
  t instanceof HTMLElement &&
  (t.isContentEditable || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement ||
    (t instanceof HTMLInputElement && !['checkbox', 'radio', 'range', 'button'].includes(t.type)));

function EmptyState({ source, onOpen }: { source: PanelSource; onOpen: () => void }) {
  return source.kind === 'extension' ? (
    <div class="empty" data-testid="empty">
      <strong>No agent streams yet — reload the page or open the demo.</strong>
      Replyscope records SSE, NDJSON and EventSource streams of this tab from the moment it loads.
      Streams started before the extension was installed are not visible. You can also import a capture file.
    </div>
  ) : (
    <div class="empty" data-testid="empty">
      <strong>Open or drop a capture</strong>
      A Replyscope capture log, a HAR file, JSON / NDJSON agent events, or raw SSE text.
      <br />
      <button class="open-file" onClick={onOpen}>Open a file…</button>
      <br />
      Everything stays in this page; nothing is uploaded.
    </div>
  );
}

function MainTabs({ store }: { store: PanelStore }) {
  const view = store.view.value;
  const [allDiagnostics, setAllDiagnostics] = useState(false);
  const tabs: [MainView, string][] = [['events', 'Events'], ['timeline', 'Timeline'], ['diagnostics', 'Diagnostics']];
  const conn = store.selectedConnection.value;
  return (
    <>
      <div class="tabs" role="tablist">
        {tabs.map(([id, label]) => (
          <button key={id} role="tab" aria-selected={view === id} onClick={() => (store.view.value = id)} data-tab={id}>
            {label}
            {id === 'diagnostics' && conn?.diagnostics.length ? <span class="count"> ({conn.diagnostics.length})</span> : null}
          </button>
        ))}
        <span class="tab-extra">
          {view === 'events' ? <EventToolbar store={store} /> : null}
          {view === 'diagnostics' ? (
            <label>
              <input type="checkbox" checked={allDiagnostics} onChange={(e) => setAllDiagnostics((e.currentTarget as HTMLInputElement).checked)} />
              All connections
            </label>
          ) : null}
        </span>
      </div>
      {conn?.notes.length ? <div class="section warn">{conn.notes.join(' · ')}</div> : null}
      {view === 'events' ? <EventList store={store} /> : view === 'timeline' ? <Timeline store={store} /> : <DiagnosticsView store={store} scope={allDiagnostics ? 'all' : 'connection'} />}
    </>
  );
}

export function App({ store, source }: { store: PanelStore; source: PanelSource }) {
  const [exporting, setExporting] = useState(false);
  const [dropping, setDropping] = useState(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTextEntry(e.target) || exporting) return;
      if (scrubberKey(store, e)) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [exporting]);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDropping(false);
    if (e.dataTransfer?.files.length) void importFiles(store, e.dataTransfer.files);
  };
  const empty = store.connections.value.length === 0;
  const conn = store.selectedConnection.value;

  return (
    <div
      class={`app${dropping ? ' dropzone-active' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={(e) => e.relatedTarget === null && setDropping(false)}
      onDrop={onDrop}
    >
      <Toolbar store={store} source={source} onImport={(files) => void importFiles(store, files)} onExport={() => setExporting(true)} />
      {empty ? (
        <EmptyState source={source} onOpen={() => document.querySelector<HTMLInputElement>('[data-testid="import-input"]')?.click()} />
      ) : (
        <SplitPane direction="column" initial={150} storageKey="connections" label="Resize connection list">
          <>
            <div class="pane-title">
              Connections <span class="count">{store.connections.value.length}</span>
            </div>
            <ConnectionList store={store} />
          </>
          <SplitPane direction="row" initial={460} storageKey="replies" label="Resize replies pane">
            <>
              <div class="pane-title">
                Replies {conn ? <span class="count">{conn.replies.length} · {conn.dialect}</span> : null}
              </div>
              <ReplyList store={store} />
            </>
            <SplitPane direction="column" initial={250} storageKey="main" label="Resize event list and step detail">
              <MainTabs store={store} />
              <>
                <Scrubber store={store} />
                <StepDetail store={store} />
              </>
            </SplitPane>
          </SplitPane>
        </SplitPane>
      )}
      {exporting ? <ExportDialog store={store} onClose={() => setExporting(false)} /> : null}
    </div>
  );
}


/** Mount the app over `source` into `root`. Returns the store (tests and embedders drive it) and an unmount. */
export function createPanelApp(source: PanelSource, root: HTMLElement): { store: PanelStore; unmount: () => void } {
  const store = createPanelStore();
  source.connect({
    reset: (header, records) => store.reset(header, records),
    append: (records) => store.ingest(records),
    status: (text, level = 'info', live) =>
      batch(() => {
        store.status.value = { text, level };
        if (live) store.live.value = live;
      }),
  });
  render(<App store={store} source={source} />, root);
  return {
    store,
    unmount: () => {
      source.disconnect();
      render(null, root);
    },
  };
}
