// Scenarios without tools: plain text, thinking then text, several model calls with usage, an upstream error,
// hint blocks, and CUSTOM notifications.

import type { Scenario } from './types.ts';
import { endReply, modelCall, startReply, streamBlock, streamToolCall, streamToolResult } from './script.ts';
import { textBlock } from '../wire/blocks.ts';

const PLAIN_ANSWER =
  'Server-Sent Events keep one HTTP response open and push `data:` frames as they happen. ' +
  'Each frame ends with a blank line — easy to read, easy to get subtly wrong. 🙂';

export const plainText: Scenario = {
  name: 'plain-text',
  title: 'Plain text',
  prompt: 'Explain Server-Sent Events in two sentences.',
  description: 'One model call streaming a single text block.',
  async run(ctx) {
    const reply = await startReply(ctx);
    await modelCall(ctx, reply, { input_tokens: 42, output_tokens: 37 }, () => streamBlock(ctx, reply, PLAIN_ANSWER));
    await endReply(ctx, reply);
  },
  intent: { finished_reason: 'completed', texts: [PLAIN_ANSWER], usage: { input_tokens: 42, output_tokens: 37 } },
};

const THOUGHT =
  'The user wants a packing list. Weather in Lisbon in March: mild, some rain. Keep it short; three items.';
const THOUGHT_ANSWER = 'Pack a light rain jacket, comfortable walking shoes and one warm layer for the evenings.';

export const thinkingThenText: Scenario = {
  name: 'thinking',
  title: 'Thinking, then text',
  prompt: 'What should I pack for Lisbon in March?',
  description: 'A reasoning model: a streamed thinking block, then the answer.',
  async run(ctx) {
    const reply = await startReply(ctx);
    await modelCall(ctx, reply, { input_tokens: 58, output_tokens: 81 }, async () => {
      await streamBlock(ctx, reply, THOUGHT, 'THINKING');
      await ctx.pause(200);
      await streamBlock(ctx, reply, THOUGHT_ANSWER);
    }, 'deepseek-reasoner');
    await endReply(ctx, reply);
  },
  intent: { finished_reason: 'completed', thinking: [THOUGHT], texts: [THOUGHT_ANSWER], usage: { input_tokens: 58, output_tokens: 81 } },
};

const USAGE_TEXTS = ['Let me check both sources.', 'The first source says 42.', 'Both agree: the answer is 42.'];

export const multiModelUsage: Scenario = {
  name: 'usage',
  title: 'Several model calls with usage',
  prompt: 'Cross-check the answer with two sources.',
  description: 'Three model calls; usage (incl. prompt-cache tokens) accumulates on the message.',
  async run(ctx) {
    const reply = await startReply(ctx);
    await modelCall(ctx, reply, { input_tokens: 120, output_tokens: 14, cache_creation_input_tokens: 96 }, () => streamBlock(ctx, reply, USAGE_TEXTS[0]));
    await modelCall(ctx, reply, { input_tokens: 140, output_tokens: 12, cache_input_tokens: 96 }, () => streamBlock(ctx, reply, USAGE_TEXTS[1]));
    await modelCall(ctx, reply, { input_tokens: 160, output_tokens: 15, cache_input_tokens: 110 }, () => streamBlock(ctx, reply, USAGE_TEXTS[2]));
    await endReply(ctx, reply);
  },
  intent: {
    finished_reason: 'completed',
    texts: USAGE_TEXTS,
    usage: { input_tokens: 420, output_tokens: 41, cache_input_tokens: 206, cache_creation_input_tokens: 96 },
  },
};

const BEFORE_ERROR = 'Let me look that up for you.';
const RATE_LIMIT = { type: 'rate_limit' as const, message: '429 Too Many Requests: quota exceeded for qwen3.7-plus' };

export const replyError: Scenario = {
  name: 'error',
  title: 'REPLY_END with error',
  prompt: 'Summarise the latest release notes.',
  description: 'The second model call hits a rate limit; the service closes the reply with finished_reason "error".',
  async run(ctx) {
    const reply = await startReply(ctx);
    await modelCall(ctx, reply, { input_tokens: 64, output_tokens: 9 }, () => streamBlock(ctx, reply, BEFORE_ERROR));
    await ctx.emit(ctx.ev.modelCallStart(reply, 'qwen3.7-plus'));
    await ctx.pause(900);
    await endReply(ctx, reply, RATE_LIMIT);
  },
  intent: { finished_reason: 'error', texts: [BEFORE_ERROR], usage: { input_tokens: 64, output_tokens: 9 }, error: RATE_LIMIT },
};

const HINT_ANSWER = 'Noted — I will finish the report first and reply to Alice afterwards.';

export const hints: Scenario = {
  name: 'hint',
  title: 'Hint blocks',
  prompt: 'Keep working on the report.',
  description: 'Two one-shot HINT_BLOCK events (a system reminder and a team message as a block list), then text.',
  async run(ctx) {
    const reply = await startReply(ctx);
    await ctx.emit(ctx.ev.hintBlock(reply, ctx.ids.id(), '<system-reminder>Current time: 2026-03-01 09:00. Tasks: 1 open.</system-reminder>', 'system'));
    await ctx.pause(150);
    await ctx.emit(ctx.ev.hintBlock(reply, ctx.ids.id(), [textBlock(ctx.ids, 'Alice: can you send me the draft when it is ready?')], 'alice'));
    await modelCall(ctx, reply, { input_tokens: 96, output_tokens: 18 }, () => streamBlock(ctx, reply, HINT_ANSWER));
    await endReply(ctx, reply);
  },
  intent: { finished_reason: 'completed', texts: [HINT_ANSWER], hints: 2, usage: { input_tokens: 96, output_tokens: 18 } },
};

const TASK_ARGS = { subject: 'Write the release notes', description: 'Collect merged PRs and summarise them.' };
const CUSTOM_ANSWER = 'I created a task to track the release notes.';

export const customEvents: Scenario = {
  name: 'custom',
  title: 'CUSTOM events',
  prompt: 'Track the release notes as a task.',
  description: 'A TaskCreate tool call; the service notifies the page with CUSTOM "state_updated" and "team_updated".',
  async run(ctx) {
    const reply = await startReply(ctx);
    let call = { id: '', input: '' };
    await modelCall(ctx, reply, { input_tokens: 80, output_tokens: 30 }, async () => {
      call = await streamToolCall(ctx, reply, 'TaskCreate', TASK_ARGS);
    });
    await ctx.emit(ctx.ev.toolResultStart(reply, call.id, 'TaskCreate'));
    await ctx.pause(150);
    // Service-layer middleware: not reply content, no reply_id (the Python Msg.append_event raises on it).
    await ctx.emit(ctx.ev.custom('state_updated', {
      tasks_context: { tasks: [{ id: 1, subject: TASK_ARGS.subject, status: 'pending' }] },
      permission_context: { mode: 'default' },
    }));
    await streamToolResult(ctx, reply, call.id, 'TaskCreate', 'Task #1 created: Write the release notes', 'success', { start: false });
    await modelCall(ctx, reply, { input_tokens: 130, output_tokens: 11 }, () => streamBlock(ctx, reply, CUSTOM_ANSWER));
    await ctx.emit(ctx.ev.custom('team_updated'));
    await endReply(ctx, reply);
  },
  intent: {
    finished_reason: 'completed',
    texts: [CUSTOM_ANSWER],
    toolCalls: [{ name: 'TaskCreate', input: TASK_ARGS, state: 'finished' }],
    toolResults: [{ name: 'TaskCreate', state: 'success', text: 'Task #1 created: Write the release notes' }],
    usage: { input_tokens: 210, output_tokens: 41 },
  },
};
