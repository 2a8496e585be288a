// Demo page entry: wires the scenario pickers, the AgentScope session (stream + chat trigger + HITL answers) and
// the pi panel. State changes are rendered once per animation frame, as the AgentScope web UI batches them.

import { UserMsg } from '../../core/agentscope/message.ts';
import type { ToolCallBlock } from '../../core/agentscope/schema.ts';
import { addUserBubble, focusReply, newChatState, processEventText } from './chat-state.ts';
import { createSession, newEventId, socketEventTexts, streamEventTexts, triggerChat } from './session-client.ts';
import { renderBubble } from './render.ts';
import { runPiScenario } from './pi-panel.ts';

interface ScenarioInfo { name: string; title: string; prompt: string; description: string; hitl?: string | null }

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const state = newChatState();
let sessionId = '';
let frame = 0;

function scheduleRender(): void {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    $('messages').replaceChildren(...state.bubbles.map((b) => renderBubble(b, { onConfirm })));
    $('custom-log').textContent = state.custom.length
      ? state.custom.map((c) => `${c.name} ${JSON.stringify(c.value)}`).join('\n')
      : 'none yet';
  });
}

function showError(err: unknown): void {
  const text = err instanceof Error ? err.message : String(err);
  $('messages').append(Object.assign(document.createElement('div'), { className: 'error-box', textContent: text }));
}

/** Allow/Deny: POST a USER_CONFIRM_RESULT exactly as the web UI's onUserConfirm builds it. */
function onConfirm(replyId: string, call: ToolCallBlock, confirmed: boolean): void {
  focusReply(state, replyId);
  document.querySelectorAll<HTMLButtonElement>(`[data-tool-call="${CSS.escape(call.id)}"] button`).forEach((b) => (b.disabled = true));
  triggerChat(sessionId, {
    type: 'USER_CONFIRM_RESULT',
    id: newEventId(),
    created_at: new Date().toISOString(),
    reply_id: replyId,
    confirm_results: [{ confirmed, tool_call: call, rules: null }],
  }).catch(showError);
}

/** The page is the executor of external tools: it runs them and POSTs EXTERNAL_EXECUTION_RESULT. */
function runExternalTools(replyId: string, calls: readonly Pick<ToolCallBlock, "id" | "name">[]): void {
  const results = calls.map((call) => {
    const output = call.name === 'get_browser_time'
      ? `${new Date().toLocaleString()} (${Intl.DateTimeFormat().resolvedOptions().timeZone})`
      : `unknown tool ${call.name}`;
    return { type: 'tool_result', id: call.id, name: call.name, output, state: call.name === 'get_browser_time' ? 'success' : 'error' };
  });
  focusReply(state, replyId);
  setTimeout(() => {
    triggerChat(sessionId, { type: 'EXTERNAL_EXECUTION_RESULT', id: newEventId(), created_at: new Date().toISOString(), reply_id: replyId, execution_results: results })
      .catch(showError);
  }, 300);
}

/** `?transport=websocket`: the session stream over the demo's WebSocket instead of SSE. */
const overSocket = new URLSearchParams(location.search).get('transport') === 'websocket';

async function listen(signal: AbortSignal): Promise<void> {
  for await (const json of (overSocket ? socketEventTexts : streamEventTexts)(sessionId, signal)) {
    const event = processEventText(state, json);
    if (event?.type === 'REQUIRE_EXTERNAL_EXECUTION') runExternalTools(event.reply_id, event.tool_calls);
    scheduleRender();
  }
}

function fillPicker(select: HTMLSelectElement, list: ScenarioInfo[]): void {
  select.replaceChildren(...list.map((s) => Object.assign(document.createElement('option'), { value: s.name, textContent: s.title })));
}

async function boot(): Promise<void> {
  const catalog = (await (await fetch('/api/scenarios')).json()) as { agentscope: ScenarioInfo[]; pi: ScenarioInfo[] };
  const picker = $<HTMLSelectElement>('scenario');
  const prompt = $<HTMLInputElement>('prompt');
  fillPicker(picker, catalog.agentscope);
  const syncPrompt = () => {
    const s = catalog.agentscope.find((x) => x.name === picker.value);
    prompt.value = s?.prompt ?? '';
    $('scenario-desc').textContent = s?.description ?? '';
  };
  picker.addEventListener('change', syncPrompt);
  syncPrompt();

  sessionId = await createSession();
  const controller = new AbortController();
  addEventListener('pagehide', () => controller.abort());
  $('conn-state').textContent = overSocket ? 'connected (WebSocket)' : 'connected (SSE)';
  const other = $<HTMLAnchorElement>('transport-switch');
  other.href = overSocket ? '?' : '?transport=websocket';
  other.textContent = overSocket ? 'read it over SSE instead' : 'read it over a WebSocket instead';
  document.body.dataset.session = sessionId;
  listen(controller.signal).then(
    () => ($('conn-state').textContent = 'stream ended'),
    (err: unknown) => { if (!controller.signal.aborted) { $('conn-state').textContent = 'stream error'; showError(err); } },
  );

  $('composer').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = prompt.value.trim() || picker.value;
    const msg = UserMsg('user', text, { metadata: { scenario: picker.value } });
    addUserBubble(state, msg);
    scheduleRender();
    triggerChat(sessionId, msg).catch(showError);
  });

  const piPicker = $<HTMLSelectElement>('pi-scenario');
  fillPicker(piPicker, catalog.pi);
  $('pi-composer').addEventListener('submit', (e) => {
    e.preventDefault();
    const s = catalog.pi.find((x) => x.name === piPicker.value);
    if (!s) return;
    const button = $<HTMLButtonElement>('pi-send');
    button.disabled = true;
    runPiScenario($('pi-out'), s).catch(showError).finally(() => (button.disabled = false));
  });
  document.body.dataset.ready = 'true';
}

boot().catch(showError);
