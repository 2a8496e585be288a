// The pi side of the page: runs the REAL `streamProxy` of @mariozechner/pi-agent-core against this server's
// POST /api/stream and renders the partial message as it grows. Imported from the package's proxy module (not its
// root entry, which pulls in the whole agent and every provider SDK); see bundle-page.ts for the pi-ai subset.

import { streamProxy } from '@mariozechner/pi-agent-core/dist/proxy.js';
import type { AssistantMessage, Context } from '@mariozechner/pi-ai';
import { DEMO_PI_MODEL, DEMO_PI_SYSTEM_PROMPT } from '../pi/pi-model.ts';
import { h } from './render.ts';

function renderMessage(msg: AssistantMessage, done: boolean): HTMLElement {
  const blocks = msg.content.map((c) => {
    if (!c) return h('div', { class: 'warn' }, '(hole in content)');
    switch (c.type) {
      case 'text':
        return h('div', { class: 'block text' }, c.text);
      case 'thinking':
        return h('details', { class: 'block thinking' }, h('summary', {}, 'Thinking'), c.thinking);
      case 'toolCall':
        return h('div', { class: 'block tool', 'data-tool-call': c.id }, 'tool ', h('strong', {}, c.name), h('code', {}, JSON.stringify(c.arguments)));
      default:
        return h('div', { class: 'block' }, JSON.stringify(c));
    }
  });
  return h('div', { class: 'bubble assistant', 'data-pi-stop-reason': done ? msg.stopReason : '' },
    h('div', { class: 'meta' }, h('span', {}, `${msg.provider} / ${msg.model}`), h('span', { class: 'status' }, done ? msg.stopReason : 'streaming…'),
      done ? h('span', {}, `${msg.usage.input} in / ${msg.usage.output} out tokens`) : null),
    ...blocks,
    msg.errorMessage ? h('div', { class: 'error-box' }, msg.errorMessage) : null);
}

export async function runPiScenario(out: HTMLElement, scenario: { name: string; prompt: string }): Promise<AssistantMessage> {
  const context: Context = {
    systemPrompt: DEMO_PI_SYSTEM_PROMPT,
    messages: [{ role: 'user', content: scenario.prompt, timestamp: Date.now() }],
  };
  out.replaceChildren(h('div', { class: 'bubble user' }, scenario.prompt));
  const slot = h('div', {});
  out.append(slot);
  const stream = streamProxy(DEMO_PI_MODEL, context, {
    proxyUrl: location.origin,
    authToken: 'demo-token',
    metadata: { scenario: scenario.name },
  });
  for await (const event of stream) {
    const msg = event.type === 'done' ? event.message : event.type === 'error' ? event.error : event.partial;
    slot.replaceChildren(renderMessage(msg, event.type === 'done' || event.type === 'error'));
  }
  const final = await stream.result();
  slot.replaceChildren(renderMessage(final, true));
  return final;
}
