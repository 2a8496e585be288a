// What the panel says before it has anything to show, by where it runs. It said "No agent streams yet — reload the
// page or open the demo" on any site: the demo is the repository's, not the page the developer inspects. Inside
// DevTools and in a tab it speaks to the inspected page — what is captured, that a stream opened before the panel was
// is there too, what it cannot see, how to import — and keeps the demo for a last line; the standalone viewer, which
// has no page, offers a file and the demo's capture. Text in backticks is code (EmptyState.tsx renders it so).

/** Where the panel runs: in DevTools, opened as a tab (panel/index.html?tabId=N), or as the standalone viewer. */
export type PanelHost = 'devtools' | 'tab' | 'viewer';

export interface EmptyWords {
  title: string;
  /** Paragraphs, in order; the import's button comes after them. */
  body: string[];
  /** Said with the button to open a file ("Import a file…" in the panel, "Open a file…" in the viewer). */
  open: string;
  /** Beside the button: that a file can be dropped too (the panel). */
  beside?: string;
  /** A paragraph after the button: where files stay (the viewer). */
  after?: string;
  /** The demo, last and secondary. */
  demo: string;
}

/** The inspected page's site as a person reads it ("example.com", "127.0.0.1:8765"), when its origin is a web one. */
export function siteName(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host ? url.host : undefined;
  } catch {
    return undefined; // "null" (an opaque origin), or no URL at all
  }
}

const CAPTURED = 'SSE and NDJSON responses (fetch, XMLHttpRequest) and EventSource streams';
const DEMO_AGENT = 'Trying Replyscope out? `npm run demo` in its repository serves an agent page that streams every scenario.';

/** `origin`: the inspected page's (the extension's status says it once the page's capture reports). */
export function emptyWords(host: PanelHost, origin?: string): EmptyWords {
  if (host === 'viewer') {
    return {
      title: 'Open or drop a capture',
      body: ['A Replyscope capture log (Export… in the DevTools panel), a HAR file, JSON / NDJSON agent events, or raw SSE text.'],
      open: 'Open a file…',
      after: 'Everything stays in this page; nothing is uploaded.',
      demo: 'No capture at hand? `examples/demo.replyscope.ndjson` in the Replyscope repository holds every scenario of its demo agent (`npm run viewer` opens with it).',
    };
  }
  const site = siteName(origin);
  const inTab = host === 'tab';
  const page = inTab ? 'the inspected tab' : 'this page';
  return {
    title: `No agent streams yet ${site ? `on ${site}` : `in ${page}`}`,
    body: [
      `Use ${inTab ? "the inspected tab's page" : 'the page'} — ask its agent something — and each stream shows here as it arrives. Replyscope records ` +
        `the page's ${CAPTURED} from the moment it loads, so one that started before ${inTab ? 'this panel' : 'DevTools'} was opened is here ` +
        'too, and a WebSocket from its first AgentScope or pi event.',
      'Not seen: requests made inside a Worker, and sockets that carry no AgentScope or pi event — a note above names them ' +
        'when the page opens one. For a stream with another content type, or a socket with another protocol, add its URL ' +
        `under Include URLs… in the toolbar. Reloading ${inTab ? 'that page' : 'the page'} captures its streams from their first byte.`,
      'Have a capture already — a Replyscope capture log, a HAR saved from the Network panel, NDJSON events or raw SSE text?',
    ],
    open: 'Import a file…',
    beside: 'or drop it here.',
    demo: DEMO_AGENT,
  };
}
