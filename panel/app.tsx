// The panel app as a factory over a data source, so the same UI runs in DevTools, in a tab and as the standalone
// viewer (and in tests with any source). `createPanelApp(source, root)` mounts it and returns the store.
import { batch } from '@preact/signals';
import { render } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ConnectionList } from './components/ConnectionList.tsx';
import { DiagnosticsView } from './components/DiagnosticsView.tsx';
import { EmptyState } from './components/EmptyState.tsx';
import { EventList, EventToolbar } from './components/EventList.tsx';
import { ExportDialog } from './components/ExportDialog.tsx';
import { FilterCount } from './components/EventToolbar.tsx';
import { CapDialog } from './components/CapDialog.tsx';
import { IncludeDialog } from './components/IncludeDialog.tsx';
import { KeyboardHelp } from './components/KeyboardHelp.tsx';
import { PageNotices } from './components/PageNotices.tsx';
import { ReplyList } from './components/ReplyList.tsx';
import { Scrubber, scrubberKey } from './components/Scrubber.tsx';
import { SplitPane } from './components/SplitPane.tsx';
import { TabList, TabPanel } from './components/TabList.tsx';
import { StepDetail } from './components/StepDetail.tsx';
import { Timeline } from './components/Timeline.tsx';
import { Toolbar } from './components/Toolbar.tsx';
import { useMediaQuery, useStackedLayout } from './components/useMediaQuery.ts';
import type { PanelSource } from './sources/source.ts';
import { readImportFile } from './store/import-file.ts';
import { connectionNumbers } from './lib/resume-words.ts';
import { createPanelStore, type MainView, type PanelStore } from './store/store.ts';

/**
 * Read files, sniff their format in the core, add them to the store. A capture log is read in slices, of any size
 * (import-file.ts); the records are analysed in slices between frames (the toolbar shows the progress), so a big
 * file does not freeze the page. Errors become the status line;
 * of several files, the line names each one's outcome (a failure is not hidden by the next file's success).
 */
export async function importFiles(store: PanelStore, files: Iterable<File>): Promise<void> {
  const list = [...files]; // a FileList empties when its input is reset, which the toolbar does at once
  const outcomes: { name: string; detail: string; failed: boolean; skipped?: boolean }[] = [];
  for (const file of list) {
    try {
      store.status.value = { text: `Reading ${file.name}…`, level: 'info' };
      const read = await readImportFile(file, file.name, (fingerprint) => store.importedFiles.has(fingerprint), (share) => {
        store.status.value = { text: `Reading ${file.name}… ${Math.floor(100 * share)}%`, level: 'info' };
      });
      const { fingerprint } = read;
      const earlier = store.importedFiles.get(fingerprint);
      if ('alreadyShown' in read || earlier !== undefined) {
        const as = earlier === file.name ? '' : ` (as ${earlier})`;
        outcomes.push({ name: file.name, detail: `already shown${as}, not imported again — Clear first to reload it`, failed: false, skipped: true });
        continue;
      }
      const { capture } = read;
      store.status.value = { text: `Importing ${file.name}…`, level: 'info' };
      const imported = await store.importCapture(capture, file.name, (share) => {
        store.status.value = { text: `Comparing ${file.name} with what is shown… ${Math.floor(100 * share)}%`, level: 'info' };
      });
      const { known } = imported;
      store.importedFiles.set(fingerprint, file.name);
      await store.whenIdle();
      // The file's own connections, as the store shows them now: not live ones that arrived while it was imported.
      const present = new Set(store.connections.value.map((c) => c.record.id));
      const added = imported.added.filter((id) => present.has(id));
      const shown = known.size ? alreadyShown(store, [...known.values()]) : '';
      const detail = added.length === 0 && known.size ? shown : `${added.length} connection${added.length === 1 ? '' : 's'}${known.size ? `; ${shown}` : ''}`;
      outcomes.push({ name: file.name, detail, failed: false, skipped: added.length === 0 && known.size > 0 });
      if (added.length && !store.selectedConnId.value) store.selectConnection(added[0]);
    } catch (err) {
      // The reader's message starts with the file's name; the status line names it already ("a.json: a.json: …").
      const message = (err as Error).message;
      outcomes.push({ name: file.name, detail: message.startsWith(`${file.name}: `) ? message.slice(file.name.length + 2) : message, failed: true });
    }
  }
  const failed = outcomes.filter((o) => o.failed).length;
  const skipped = outcomes.filter((o) => o.skipped).length;
  if (outcomes.length === 0) return;
  const one = (o: (typeof outcomes)[number]) => (o.failed ? `could not import ${o.name}: ${o.detail}` : `${o.name}: ${o.detail}`);
  const [first] = outcomes;
  const text = outcomes.length > 1
    ? `Imported ${outcomes.length - failed - skipped} of ${outcomes.length} files — ${outcomes.map(one).join('; ')}`
    : first.failed ? `Could not import ${first.name}: ${first.detail}` : first.skipped ? `${first.name}: ${first.detail}` : `Imported ${first.name}: ${first.detail}`;
  store.status.value = { text, level: failed ? 'error' : 'info' };
}

/**
 * What an import left out as shown already: "3 connections already shown (#1–#3, from demo.replyscope.ndjson), not
 * added again" — the connections by their place in the list, as the resume links name them.
 */
function alreadyShown(store: PanelStore, ids: string[]): string {
  const numbers = connectionNumbers(store.connections.value);
  const names = ids.map((id) => numbers.get(id)).filter((n): n is number => n !== undefined).sort((a, b) => a - b);
  const run = names.length > 1 && names.every((n, i) => i === 0 || n === names[i - 1] + 1);
  const which = run && names.length > 2 ? `#${names[0]}–#${names.at(-1)}` : names.length > 5 ? `${names.slice(0, 5).map((n) => `#${n}`).join(', ')}…` : names.map((n) => `#${n}`).join(', ');
  const files = [...new Set(ids.map((id) => store.connectionFiles.get(id)).filter((f): f is string => f !== undefined))];
  const from = files.length === 0 ? 'captured here' : `from ${files.join(', ')}`;
  return `${ids.length} connection${ids.length === 1 ? '' : 's'} already shown (${which}, ${from}), not added again`;
}

/** "3", or "1 of 3" while the filter hides some. */
function shownCount(store: PanelStore): string {
  const all = store.connections.value;
  const shown = store.shownConnections.value.length;
  return shown === all.length ? String(all.length) : `${shown} of ${all.length}`;
}

/**
 * The connections pane as rows: its title (21 px) and the table's header (20) over rows of 20 px — connections and
 * "Navigated to" rows alike. Capped (CONNECTIONS_MAX) or at a height picked, the pane ends between two rows: at
 * 1400 × 340 its quarter of the height (72 px) showed one and a half connections, the half row as if it were the last.
 */
const CONNECTION_ROWS = { head: 21 + 20, row: 20 };

/**
 * Height of the connections pane showing `rows` rows (connections and "Navigated to" rows alike): its title and header
 * and the rows, ending under the last as a capped or picked pane ends between two — it was sized for a 24 px title and
 * a 21 px header with 10 px of air, 14 px of nothing under the rows (the first arrow key up on its
 * divider moved it 14 px, to the nearest row).
 */
function connectionsHeight(rows: number): number {
  return CONNECTION_ROWS.head + CONNECTION_ROWS.row * Math.max(1, rows);
}

/**
 * The most the connection list takes while it fits its rows: two fifths of the height, but in a short panel (DevTools
 * docked below) the panes under it keep 340 px — six event rows and a few lines of the message — as long as the list
 * keeps a quarter: five connections left ~2.5 event rows at 500 px.
 */
const CONNECTIONS_MAX = 'min(40%, max(25%, 100% - 340px))';

/**
 * The event list (or timeline, diagnostics) and the step detail share the height equally — as a share, so both grow
 * with the window (a list sized in px at a short window's opening stayed ~100 px when DevTools was made taller) — but
 * the list keeps six whole rows however it is scrolled (tabs 25 + header 20 + 7 × 20 px) while the step keeps 120 px
 * under it: the scrubber and three lines of the message. In a DevTools docked below (340 px) the list's six rows left
 * the step its tab bar and no line of the message; there the two share what there is.
 */
const MAIN_LIST = 'max(50%, min(185px, 100% - 120px))';
/**
 * What the step keeps under the event list of a size the user picked: its scrubber, tabs and the head and a line of the
 * message (a share picked in a tall window left a DevTools docked below the tab bar alone), in a short panel half.
 */
const MAIN_KEEP = 'max(30%, min(100px, 50%))';

/**
 * What the panes under a list (the connections; stacked, the replies too) keep of a height the user picked for it:
 * room for the event list and the message (240 px), in a short panel down to three quarters of the height — the
 * quarter the connection list keeps for itself (CONNECTIONS_MAX). A share picked in a tall window left a DevTools
 * docked below ~90 px under the connections.
 */
const UNDER_LIST_KEEP = 'max(30%, min(240px, 75%))';

/**
 * The replies pane's width beside the event list until the user drags its divider: a third of the window, 460 px at
 * most, up to ~1360 px wide (the event list keeps room for its columns), and in a wider window what the event list
 * does not need of 900 px, up to 40% or 720 px — at 1600 px the reply column showed "Friday e6336d1ff…" while the
 * event list's Data column had 600 px to spare.
 */
const REPLIES_WIDTH = 'clamp(min(460px, 33%), 100% - 900px, min(40%, 720px))';
/**
 * Under ~625 px, side by side, 220 px at least: a reply's number, name and id head beside Finished and Diag (a third
 * of 600 px showed two characters of the id). Only there: wider, the scrubber under the event list keeps the ~420 px
 * it needs for its First and Last step buttons (Scrubber.tsx), which those pixels took from it at 640 px.
 */
const NARROW_WINDOW = '(max-width: 625px)';
const REPLIES_WIDTH_NARROW = 'max(33%, 220px)';
/**
 * Of a width the user picked, the replies keep ~200 px — a reply's number and name beside Finished and Diag (a share
 * picked in a wide window cut them to a letter in a narrow one) — and the event list ~380 px: its columns and the
 * scrubber on two rows (a share picked wide left it 180 px at 600).
 */
const REPLIES_LEAST = 'min(200px, 40%)';
const REPLIES_KEEP = 'max(30%, min(380px, 100% - 220px))';

/**
 * Stacked (a panel docked to the side, useMediaQuery.ts), one pane over the next: the connection list takes at most a
 * fifth of the height and the replies a quarter of what is left — each fits its rows until then — and the event list
 * and the step share the rest as they do side by side (MAIN_LIST).
 */
const STACKED_CONNECTIONS_MAX = '20%';
const STACKED_REPLIES_MAX = '25%';

/**
 * Height of the stacked replies pane showing `rows` replies: pane title (21) + table header (20) + rows, and 2 px — the
 * connection's details under the rows (scrolled to) start with 4 px of padding, so no cut line of them shows.
 */
function repliesHeight(rows: number): number {
  return 21 + 20 + 20 * Math.max(1, rows) + 2;
}

const isTextEntry = (t: EventTarget | null) =>
  t instanceof HTMLElement &&
  (t.isContentEditable || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement ||
    (t instanceof HTMLInputElement && !['checkbox', 'radio', 'range', 'button'].includes(t.type)));

function MainTabs({ store }: { store: PanelStore }) {
  const view = store.view.value;
  const [allDiagnostics, setAllDiagnostics] = useState(false);
  // Where the timeline puts its buttons (zoom, Fit, Table): beside the tabs, as the event list's tools.
  const [timelineTools, setTimelineTools] = useState<HTMLElement | null>(null);
  const conn = store.selectedConnection.value;
  // The count of what the tab lists: every connection's with "All connections" (it said the selected one's 11 over 14).
  const diagnostics = allDiagnostics ? store.connections.value.reduce((n, c) => n + c.diagnostics.length, 0) : conn?.diagnostics.length ?? 0;
  const tabs = [
    ['events', 'Events'],
    ['timeline', 'Timeline'],
    ['diagnostics', <>Diagnostics{diagnostics ? <span class="count" data-testid="diagnostics-count"> ({diagnostics.toLocaleString('en-US')})</span> : null}</>],
  ] as const;
  return (
    <>
      <div class="tabs">
        <TabList<MainView> tabs={tabs} selected={view} onSelect={(id) => (store.view.value = id)} label="Connection views" panelId="connection-view" />
        <span class="tab-extra">
          {view === 'events' ? <EventToolbar store={store} /> : null}
          {view === 'timeline' ? <span class="tl-tools" ref={setTimelineTools} /> : null}
          {view === 'diagnostics' ? (
            <label>
              <input type="checkbox" checked={allDiagnostics} onChange={(e) => setAllDiagnostics((e.currentTarget as HTMLInputElement).checked)} />
              All connections
            </label>
          ) : null}
        </span>
      </div>
      {conn?.notes.length ? <div class="section warn">{conn.notes.join(' · ')}</div> : null}
      {view === 'events' ? <FilterCount store={store} /> : null}
      <TabPanel panelId="connection-view" selected={view} class="tabpanel">
        {view === 'events' ? <EventList store={store} /> : view === 'timeline' ? <Timeline store={store} tools={timelineTools} /> : <DiagnosticsView store={store} scope={allDiagnostics ? 'all' : 'connection'} />}
      </TabPanel>
    </>
  );
}

type Dialog = 'export' | 'help' | 'include' | 'cap';

export function App({ store, source }: { store: PanelStore; source: PanelSource }) {
  const [dialog, setDialogState] = useState<Dialog | undefined>(undefined);
  const [dropping, setDropping] = useState(false);
  // Which dialog is open (one at a time: each covers the toolbar), readable by the one key listener at once: a
  // listener re-registered by an effect would only learn about a closed dialog after the next paint, and lose the
  // keys pressed meanwhile.
  const openDialog = useRef<Dialog | undefined>(undefined);
  const setDialog = (d: Dialog | undefined) => {
    openDialog.current = d;
    setDialogState(d);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (openDialog.current === 'help' && (e.key === 'Escape' || e.key === '?')) {
        e.preventDefault();
        setDialog(undefined);
        return;
      }
      if (e.defaultPrevented || isTextEntry(e.target) || openDialog.current) return;
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        setDialog('help');
        return;
      }
      if (scrubberKey(store, e)) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDropping(false);
    if (e.dataTransfer?.files.length) void importFiles(store, e.dataTransfer.files);
  };
  const empty = store.connections.value.length === 0;
  const conn = store.selectedConnection.value;
  const stacked = useStackedLayout();
  const narrowWindow = useMediaQuery(NARROW_WINDOW);
  // An import from the empty page's "Open a file…" replaces that page with the lists: the button that had focus is
  // gone and focus fell to the document, so the next Tab started over at the toolbar and a screen reader said nothing
  // of what came in. Focus lost so goes to the connection list, which reads out the selected connection. Only focus
  // lost with the empty page: a live capture's first stream must not pull focus from wherever the user is.
  const wasEmpty = useRef(empty);
  const lastFocused = useRef<Element | null>(null);
  useEffect(() => {
    const onFocus = (e: FocusEvent) => (lastFocused.current = e.target as Element);
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, []);
  useLayoutEffect(() => {
    const was = lastFocused.current;
    const lost = document.activeElement === null || document.activeElement === document.body;
    // A removed element still finds its removed ancestors: it was in the empty page.
    if (wasEmpty.current && !empty && lost && was && !was.isConnected && was.closest('[data-testid="empty"]')) {
      document.querySelector<HTMLElement>('[data-testid="connections"] [role="grid"]')?.focus();
    }
    wasEmpty.current = empty;
  }, [empty]);
  const live = source.live;
  const includeControls = live?.includeUrls && live.setIncludeUrls ? { includeUrls: live.includeUrls, setIncludeUrls: live.setIncludeUrls } : undefined;
  const capControls = live?.captureLimit && live.setCaptureLimit ? { captureLimit: live.captureLimit, setCaptureLimit: live.setCaptureLimit } : undefined;

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
      <Toolbar store={store} source={source} onImport={(files) => void importFiles(store, files)} onExport={() => setDialog('export')} onHelp={() => setDialog('help')}
        onInclude={includeControls ? () => setDialog('include') : undefined} includeCount={store.live.value.includeCount}
        onCap={capControls ? () => setDialog('cap') : undefined} capBytes={store.live.value.captureLimitBytes} />
      <PageNotices notices={store.notices.value} />
      {empty ? (
        <EmptyState source={source} unreachable={store.live.value.pageReachable === false} closed={store.live.value.tabClosed} status={store.status.value} origin={store.live.value.siteOrigin}
          off={store.live.value.siteEnabled === false ? store.live.value.siteOrigin ?? 'this site' : undefined} onOpen={() => document.querySelector<HTMLInputElement>('[data-testid="import-input"]')?.click()} />
      ) : (
        <SplitPane
          direction="column"
          initial={150}
          auto={connectionsHeight(store.connections.value.length + store.navigations.value.length)}
          autoMax={stacked ? STACKED_CONNECTIONS_MAX : CONNECTIONS_MAX}
          storageKey={stacked ? 'connections.stacked' : 'connections'}
          keep={UNDER_LIST_KEEP}
          rows={CONNECTION_ROWS}
          label="Resize connection list"
        >
          <>
            <div class="pane-title">
              Connections <span class="count">{shownCount(store)}</span>
            </div>
            {/* The box a focused list's ring is drawn over (styles.css): the list, not the pane's title above it. */}
            <div class="list-frame"><ConnectionList store={store} /></div>
          </>
          {/* Stacked, the replies stand above the event list and the step, rather than a ~150 px column beside them. */}
          <SplitPane direction={stacked ? 'column' : 'row'} initial={narrowWindow ? REPLIES_WIDTH_NARROW : REPLIES_WIDTH} storageKey={stacked ? 'replies.stacked' : 'replies'} label="Resize replies pane"
            auto={stacked ? repliesHeight(conn?.replies.length ?? 0) : undefined} autoMax={STACKED_REPLIES_MAX}
            least={stacked ? undefined : REPLIES_LEAST} keep={stacked ? UNDER_LIST_KEEP : REPLIES_KEEP}>
            <>
              <div class="pane-title">
                Replies {conn ? <span class="count">{conn.replies.length} · {conn.dialect}</span> : null}
              </div>
              <div class="list-frame"><ReplyList store={store} stacked={stacked} /></div>
            </>
            <SplitPane direction="column" initial={MAIN_LIST} keep={MAIN_KEEP} storageKey={stacked ? 'main.stacked' : 'main'} label="Resize event list and step detail">
              <MainTabs store={store} />
              <>
                <Scrubber store={store} stacked={stacked} />
                <StepDetail store={store} stacked={stacked} />
              </>
            </SplitPane>
          </SplitPane>
        </SplitPane>
      )}
      {dialog === 'export' ? <ExportDialog store={store} onClose={() => setDialog(undefined)} /> : null}
      {dialog === 'help' ? <KeyboardHelp onClose={() => setDialog(undefined)} /> : null}
      {dialog === 'include' && includeControls ? (
        <IncludeDialog live={includeControls} onClose={() => setDialog(undefined)} />
      ) : null}
      {dialog === 'cap' && capControls ? <CapDialog live={capControls} onClose={() => setDialog(undefined)} /> : null}
    </div>
  );
}


/** Mount the app over `source` into `root`. Returns the store (tests and embedders drive it) and an unmount. */
export function createPanelApp(source: PanelSource, root: HTMLElement): { store: PanelStore; unmount: () => void } {
  const store = createPanelStore();
  source.connect({
    reset: (header, records, file) => store.reset(header, records, { file }),
    append: (records) => store.ingest(records),
    idle: () => store.whenIdle(),
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
