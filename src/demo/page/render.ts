// DOM rendering of the chat: one bubble per message, one element per content block. Plain DOM (no framework) so
// the page stays a small, readable example of an AgentScope frontend.

import type { ContentBlock, DataBlock, TextBlock, ToolCallBlock } from '../../core/agentscope/schema.ts';
import type { BubbleState } from './chat-state.ts';

type Child = Node | string | null | undefined | false;

export function h(tag: string, attrs: Record<string, string | ((e: Event) => void)> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export interface RenderHandlers {
  onConfirm(replyId: string, call: ToolCallBlock, confirmed: boolean): void;
}

function dataSrc(block: DataBlock): string {
  return block.source.type === 'base64' ? `data:${block.source.media_type};base64,${block.source.data}` : block.source.url;
}

function renderData(block: DataBlock): HTMLElement {
  if (block.source.media_type.startsWith('image/')) {
    return h('img', { class: 'data', alt: block.name ?? block.source.media_type, src: dataSrc(block), 'data-block-id': block.id });
  }
  return h('div', { class: 'block' }, `[${block.source.media_type} data]`);
}

function renderOutput(output: string | readonly (TextBlock | DataBlock)[]): Child[] {
  if (typeof output === 'string') return [h('pre', {}, output)];
  return output.map((b) => (b.type === 'text' ? h('pre', {}, b.text) : renderData(b)));
}

function renderBlock(block: ContentBlock, bubble: BubbleState, handlers: RenderHandlers): HTMLElement {
  switch (block.type) {
    case 'text':
      return h('div', { class: 'block text' }, block.text);
    case 'thinking':
      return h('details', { class: 'block thinking' }, h('summary', {}, 'Thinking'), block.thinking);
    case 'hint': {
      const body = typeof block.hint === 'string' ? block.hint : block.hint.map((b) => (b.type === 'text' ? b.text : `[${b.source.media_type}]`)).join('\n');
      return h('div', { class: 'block hint-block' }, `hint${block.source ? ` from ${block.source}` : ''}: ${body}`);
    }
    case 'data':
      return renderData(block);
    case 'tool_call': {
      const el = h('div', { class: 'block tool', 'data-tool-call': block.id, 'data-state': block.state },
        'tool ', h('strong', {}, block.name), h('span', { class: 'badge' }, block.state), h('code', {}, block.input));
      if (block.state === 'asking' && bubble.phase === 'streaming') {
        el.append(h('div', { class: 'confirm' }, 'Allow this call?',
          h('button', { class: 'primary', 'data-action': 'allow', onclick: () => handlers.onConfirm(bubble.msg.id, block, true) }, 'Allow'),
          h('button', { 'data-action': 'deny', onclick: () => handlers.onConfirm(bubble.msg.id, block, false) }, 'Deny')));
      }
      if (block.state === 'submitted') el.append(h('div', { class: 'hint' }, 'Running in your browser…'));
      return el;
    }
    case 'tool_result':
      return h('div', { class: 'block tool', 'data-tool-result': block.id, 'data-state': block.state },
        '↳ result of ', h('strong', {}, block.name), h('span', { class: 'badge' }, block.state), ...renderOutput(block.output));
  }
}

export function renderBubble(bubble: BubbleState, handlers: RenderHandlers): HTMLElement {
  const { msg } = bubble;
  const status = msg.role === 'user' ? '' : bubble.phase === 'streaming' ? 'streaming…' : msg.finished_reason ?? 'ended';
  const usage = msg.usage ? `${msg.usage.input_tokens} in / ${msg.usage.output_tokens} out tokens` : '';
  return h('div', {
    class: `bubble ${msg.role}`,
    'data-reply-id': msg.id,
    'data-phase': bubble.phase,
    'data-finished-reason': msg.finished_reason ?? '',
  },
  h('div', { class: 'meta' }, h('span', {}, msg.name), status && h('span', { class: 'status' }, status), usage && h('span', {}, usage)),
  ...msg.content.map((b) => renderBlock(b, bubble, handlers)),
  msg.error ? h('div', { class: 'error-box' }, `Error (${msg.error.type}): ${msg.error.message}`) : null,
  ...bubble.problems.map((p) => h('div', { class: 'warn' }, `⚠ ${p}`)));
}
