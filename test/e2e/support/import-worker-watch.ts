// Where an imported file was read, seen from the page: the Workers it started and what they posted, and whether the
// page's own thread parsed any of the file. Installed before the panel's scripts run (page.addInitScript): the
// panel starts its import worker through the global Worker, and a capture log read on the page's thread goes
// through the global JSON.parse, a line at a time — a record line holds `"kind":"…"`; a HAR or an events file is
// parsed whole, one text of the file's size. (A worker's own JSON.parse is another global, not watched.)
import type { Page } from '@playwright/test';

export interface ImportWorkerSeen {
  /** Workers started, by their options' name. */
  workers: string[];
  /** Messages of each type the workers posted (`records`: the batches). */
  posted: Record<string, number>;
  /** Texts the page's thread gave JSON.parse that are a line of a capture log or more than 1 MiB. */
  parsedHere: number;
}

const WATCH = `(() => {
  const seen = { workers: [], posted: {}, parsedHere: 0 };
  window.__importWorkerSeen = seen;
  const RealWorker = window.Worker;
  if (typeof RealWorker === 'function') {
    window.Worker = class extends RealWorker {
      constructor(url, options) {
        super(url, options);
        seen.workers.push(options?.name ?? '');
        this.addEventListener('message', (e) => {
          const type = String(e.data?.type);
          seen.posted[type] = (seen.posted[type] ?? 0) + 1;
        });
      }
    };
  }
  const parse = JSON.parse;
  JSON.parse = function (text, reviver) {
    if (typeof text === 'string' && (text.length > 1 << 20 || /^\\{"kind":"/.test(text))) seen.parsedHere++;
    return parse.call(this, text, reviver);
  };
})()`;

/** Watches the page's imports from its next navigation on. */
export async function watchImportWorker(page: Page): Promise<void> {
  await page.addInitScript(WATCH);
}

export function importWorkerSeen(page: Page): Promise<ImportWorkerSeen> {
  return page.evaluate(() => JSON.parse(JSON.stringify((window as unknown as { __importWorkerSeen: ImportWorkerSeen }).__importWorkerSeen)) as ImportWorkerSeen);
}
