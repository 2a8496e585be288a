// The top toolbar: record/pause, clear, preserve log (live only), URL filter, errors only, import, export.
import { useRef } from 'preact/hooks';
import { FilterStatus, countOf } from './FilterStatus.tsx';
import { Icon } from './Icon.tsx';
import { capMB } from '../lib/capture-cap.ts';
import type { PanelSource } from '../sources/source.ts';
import type { PanelStore } from '../store/store.ts';
import { HAS_ERRORS_TITLE } from '../store/filters.ts';

/** A status longer than this is likely cut by the toolbar: it can take focus to be read whole. */
const LONG_STATUS = 60;

export function Toolbar({ store, source, onImport, onExport, onHelp, onInclude, includeCount, onCap, capBytes }: {
  store: PanelStore;
  source: PanelSource;
  onImport: (files: FileList) => void;
  onExport: () => void;
  onHelp: () => void;
  /** Opens the include list (live captures only). */
  onInclude?: () => void;
  /** Patterns on the include list, when known. */
  includeCount?: number;
  /** Opens the memory cap (live captures only). */
  onCap?: () => void;
  /** The per-tab capture cap in bytes, when known. */
  capBytes?: number;
}) {
  const file = useRef<HTMLInputElement>(null);
  const paused = store.paused.value;
  const st = store.status.value;
  const backlog = store.backlog.value;
  const f = store.filters;
  return (
    <div class="toolbar" role="toolbar" aria-label="Replyscope">
      {source.live ? ( // recording is a live capture's; the viewer only imports
        <button
          onClick={() => store.setPaused(!paused)}
          title={paused ? 'Resume recording (records held while paused are applied)' : 'Pause recording'}
          // The name says what a press does, so no aria-pressed: with it, recording read "Pause recording, pressed"
          // (as if paused) and paused "Resume recording, not pressed".
          aria-label={paused ? 'Resume recording' : 'Pause recording'}
        >
          <span class={`rec${paused ? ' paused' : ''}`} />
        </button>
      ) : null}
      <button
        title="Clear"
        aria-label="Clear"
        onClick={() => {
          store.clear();
          source.live?.clear();
        }}
      >
        <Icon name="clear" />
      </button>
      {source.live ? (
        <label title="Keep the capture across navigations">
          <input
            type="checkbox"
            checked={store.live.value.preserveLog ?? false}
            onChange={(e) => {
              const on = (e.currentTarget as HTMLInputElement).checked;
              store.live.value = { ...store.live.value, preserveLog: on }; // the extension's status confirms it
              source.live!.setPreserveLog(on);
            }}
          />
          Preserve log
        </label>
      ) : null}
      {source.live?.setSiteEnabled && store.live.value.siteEnabled !== undefined ? (
        <label title={`Capture streams on ${store.live.value.siteOrigin ?? 'this site'} (remembered per site). Unticked, nothing of the site is recorded and what was captured on it is dropped.`}>
          <input
            type="checkbox"
            checked={store.live.value.siteEnabled}
            onChange={(e) => {
              const on = (e.currentTarget as HTMLInputElement).checked;
              source.live!.setSiteEnabled!(on).catch((err: Error) => (store.status.value = { text: `Could not switch capture: ${err.message}`, level: 'error' }));
            }}
          />
          Capture this site
        </label>
      ) : null}
      <span class="sep" />
      <input
        type="search"
        placeholder="Filter URL"
        aria-label="Filter connections by URL"
        value={f.urlText.value}
        onInput={(e) => (f.urlText.value = (e.currentTarget as HTMLInputElement).value)}
      />
      <label title={HAS_ERRORS_TITLE}>
        <input type="checkbox" checked={f.errorsOnly.value} onChange={(e) => (f.errorsOnly.value = (e.currentTarget as HTMLInputElement).checked)} />
        Has errors
      </label>
      <FilterStatus filter={`${f.urlText.value}\n${f.errorsOnly.value}`} text={`${countOf(store.shownConnections.value.length, store.connections.value.length, 'connection')} shown`} />
      {onInclude ? (
        <button
          onClick={onInclude}
          data-testid="include-open"
          title="URLs to capture whatever their content type, and WebSockets to record from their opening"
        >
          {/* A narrow panel shows the short label (styles.css): with both settings the full ones pushed Export… off the row.
              The label shown is the button's name (the one hidden is display: none), so a speech user says what they see. */}
          <span class="wide-label">{includeCount ? `Include URLs (${includeCount})…` : 'Include URLs…'}</span>
          <span class="narrow-label">{includeCount ? `URLs (${includeCount})…` : 'URLs…'}</span>
        </button>
      ) : null}
      {onCap ? (
        <button
          onClick={onCap}
          data-testid="cap-open"
          title="How much captured data each tab keeps before its oldest is evicted"
        >
          <span class="wide-label">{capBytes ? `Memory cap (${capMB(capBytes)} MB)…` : 'Memory cap…'}</span>
          <span class="narrow-label">{capBytes ? `Cap ${capMB(capBytes)} MB…` : 'Cap…'}</span>
        </button>
      ) : null}
      <span class="sep" />
      <button onClick={() => file.current?.click()} title="Import a capture log, HAR, JSON/NDJSON events or raw SSE text">
        Import…
      </button>
      <input
        ref={file}
        type="file"
        multiple
        hidden
        data-testid="import-input"
        accept=".ndjson,.jsonl,.json,.har,.txt,.sse,.log,text/*,application/json"
        onChange={(e) => {
          const input = e.currentTarget as HTMLInputElement;
          if (input.files?.length) onImport(input.files);
          input.value = '';
        }}
      />
      <button onClick={onExport} disabled={store.connections.value.length === 0}>
        Export…
      </button>
      <span class="spacer" />
      {paused && store.held.value > 0 ? <span class="warn">{store.held.value} records held</span> : null}
      {backlog ? (
        <span class="progress" role="progressbar" aria-label="Analysing" aria-valuemin={0} aria-valuemax={backlog.total} aria-valuenow={backlog.done} data-testid="progress">
          <span class="bar"><span style={{ width: `${Math.round((100 * backlog.done) / Math.max(1, backlog.total))}%` }} /></span>
          Analysing {Math.round((100 * backlog.done) / Math.max(1, backlog.total))}%
        </span>
      ) : null}
      {/* The status, the source and help: one unit (styles.css) that wraps whole to a row of its own in a panel docked
          to the side — "viewer ?" went to a second row alone. */}
      <span class="toolbar-end">
        {/* Always there (a live region must exist before its text changes, or screen readers miss it); a long line is
            cut to the toolbar — focused (it can be, then) or hovered, it opens in full below it. */}
        <span
          role="status"
          aria-live={st?.level === 'error' ? 'assertive' : 'polite'}
          class={`status ${st?.level ?? ''}`}
          title={st?.text}
          tabIndex={st && st.text.length > LONG_STATUS ? 0 : undefined}
          data-testid="status"
        >
          {st?.text}
        </span>
        {source.label ? <span class="dim">{source.label}</span> : null}
        <button onClick={onHelp} title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">?</button>
      </span>
    </div>
  );
}
