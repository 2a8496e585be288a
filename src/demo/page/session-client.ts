// The AgentScope service API as its own web UI calls it (examples/web_ui/frontend/src/api): create a session, read
// the long-lived session stream with fetch + reader (split on "\n", lines beginning "data: ", one JSON event per
// line, comments skipped), and trigger runs with POST /chat/. Written to behave like that client, not like a spec
// SSE parser, because the point of the demo is to be inspected as a real AgentScope frontend.

export const AGENT_ID = 'demo-agent';

async function postJson<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-User-ID': 'demo-user' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    let detail = text || res.statusText;
    try {
      const parsed = JSON.parse(text) as { detail?: unknown };
      if (typeof parsed.detail === 'string') detail = parsed.detail;
    } catch {
      // not JSON — keep the raw text
    }
    throw new Error(`${res.status}: ${detail}`);
  }
  return JSON.parse(text) as T;
}

export async function createSession(): Promise<string> {
  const res = await postJson<{ session_id: string }>('/sessions/', { agent_id: AGENT_ID, name: 'Replyscope demo' });
  return res.session_id;
}

export function triggerChat(sessionId: string, input: unknown): Promise<{ status: string; session_id: string }> {
  return postJson('/chat/', { agent_id: AGENT_ID, session_id: sessionId, input });
}

/** Yields the raw JSON text of each `data: ` line of the session stream until it ends or `signal` aborts. */
export async function* streamEventTexts(sessionId: string, signal: AbortSignal): AsyncGenerator<string> {
  const res = await fetch(`/sessions/${encodeURIComponent(sessionId)}/stream?agent_id=${encodeURIComponent(AGENT_ID)}`, {
    headers: { 'X-User-ID': 'demo-user' },
    signal,
  });
  if (!res.ok || !res.body) throw new Error(`stream: HTTP ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('data: ')) {
          const json = line.slice(6).trim();
          if (json) yield json;
        }
        // `:` heartbeat comments and blank separator lines are skipped, as the web UI does.
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * The same events over the demo's WebSocket (GET /sessions/{id}/ws): one text message per event, as apps that read
 * their agent over a socket get them. Ends when the socket closes; `signal` closes it.
 */
export async function* socketEventTexts(sessionId: string, signal: AbortSignal): AsyncGenerator<string> {
  const url = new URL(`/sessions/${encodeURIComponent(sessionId)}/ws?agent_id=${encodeURIComponent(AGENT_ID)}`, location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(url);
  const queue: string[] = [];
  let ended: { error?: Error } | undefined;
  let wake: (() => void) | undefined;
  const settle = () => wake?.();
  ws.onmessage = (e) => {
    if (typeof e.data === 'string') queue.push(e.data);
    settle();
  };
  ws.onclose = (e) => {
    ended = e.wasClean || signal.aborted ? {} : { error: new Error(`socket closed (code ${e.code})`) };
    settle();
  };
  const abort = () => ws.close();
  signal.addEventListener('abort', abort);
  try {
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (ended) {
        if (ended.error) throw ended.error;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal.removeEventListener('abort', abort);
    ws.close();
  }
}

/** A fresh id as the web UI makes them for events it sends (crypto.randomUUID()). */
export function newEventId(): string {
  return crypto.randomUUID();
}
