// The standalone viewer's source: no extension; data comes from files the user opens or drops (handled by the
// app for both modes) and, optionally, from `?load=<url>` (same-origin or http(s)) fetched once at start — the way
// `npm run viewer` preloads a sample capture.
import type { PanelSource, SourceSink } from './source.ts';
import { readImportFile } from '../store/import-file.ts';
import { safeRemoteUrl } from '../lib/safe-url.ts';

export function createViewerSource(location: Location): PanelSource {
  let aborted = new AbortController();
  return {
    kind: 'viewer',
    label: 'viewer',
    connect(sink: SourceSink) {
      aborted = new AbortController();
      const param = new URLSearchParams(location.search).get('load');
      if (!param) return;
      // Relative paths resolve against the viewer's own URL; only http(s) results are fetched.
      const url = safeRemoteUrl(new URL(param, location.href).href);
      if (!url) {
        sink.status(`Not loading ${param}: only http(s) URLs can be preloaded`, 'error');
        return;
      }
      const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'capture');
      sink.status(`Loading ${name}…`);
      fetch(url, { signal: aborted.signal })
        .then(async (res) => {
          if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
          // As a file the user imports: a capture log of any size, read in slices; anything else whole.
          const read = await readImportFile(await res.blob(), name, () => false, (share) => sink.status(`Loading ${name}… ${Math.floor(100 * share)}%`), aborted.signal);
          if (!('capture' in read)) return;
          const { capture } = read;
          sink.reset(capture.header, capture.records, name);
          // "Loaded" once it is analysed (a large capture takes seconds, in slices): said at once, it stood beside
          // connections still reading "live" and counting up, as if the file were a live capture.
          sink.status(`Analysing ${name}…`);
          await sink.idle?.();
          sink.status(`Loaded ${name}`);
        })
        .catch((err: Error) => {
          if (err.name === 'AbortError') return;
          // The reader's message starts with the file's name, which this line names already ("a.bin: a.bin: …"), as an
          // import's does (app.tsx).
          const message = err.message.startsWith(`${name}: `) ? err.message.slice(name.length + 2) : err.message;
          sink.status(`Could not load ${name}: ${message}`, 'error');
        });
    },
    disconnect() {
      aborted.abort();
    },
  };
}
