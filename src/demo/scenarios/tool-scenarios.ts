// Scenarios with tools: a streamed tool call and result, images (a streamed DATA_BLOCK and a tool-result image),
// a user confirmation (REQUIRE_USER_CONFIRM → Allow/Deny) and an external (browser-side) execution.

import type { Scenario } from './types.ts';
import { base64Chunks, endReply, modelCall, startReply, streamBlock, streamToolCall, streamToolResult } from './script.ts';
import { toolCallBlock, type PermissionRule } from '../wire/blocks.ts';
import { barChartPng, sunsetPng } from '../png.ts';

const WEATHER_ARGS = { city: 'Paris', unit: 'celsius' };
const WEATHER_OUTPUT = '{"city": "Paris", "temperature": 18,\n "condition": "sunny",\n "humidity": 0.41}';
const WEATHER_TEXTS = ['Let me check the current weather.', 'It is 18 °C and sunny in Paris right now.'];

export const toolCall: Scenario = {
  name: 'tool-call',
  title: 'Tool call',
  prompt: 'What is the weather in Paris?',
  description: 'Text, a tool call with streamed JSON arguments, a streamed tool result, then the answer.',
  async run(ctx) {
    const reply = await startReply(ctx);
    let call = { id: '', input: '' };
    await modelCall(ctx, reply, { input_tokens: 210, output_tokens: 32 }, async () => {
      await streamBlock(ctx, reply, WEATHER_TEXTS[0]);
      call = await streamToolCall(ctx, reply, 'get_weather', WEATHER_ARGS);
    });
    await streamToolResult(ctx, reply, call.id, 'get_weather', WEATHER_OUTPUT);
    await modelCall(ctx, reply, { input_tokens: 265, output_tokens: 14 }, () => streamBlock(ctx, reply, WEATHER_TEXTS[1]));
    await endReply(ctx, reply);
  },
  intent: {
    finished_reason: 'completed',
    texts: WEATHER_TEXTS,
    toolCalls: [{ name: 'get_weather', input: WEATHER_ARGS, state: 'finished' }],
    toolResults: [{ name: 'get_weather', state: 'success', text: WEATHER_OUTPUT }],
    usage: { input_tokens: 475, output_tokens: 46 },
  },
};

/** The two generated pictures, exported so tests can compare the reconstructed bytes. */
export const SUNSET_PNG_BASE64 = sunsetPng().toString('base64');
export const CHART_PNG_BASE64 = barChartPng([3, 5, 2, 7]).toString('base64');
const CHART_ARGS = { values: [3, 5, 2, 7], kind: 'bar' };
const IMAGE_TEXTS = ['Here is a sunset I drew for you:', 'The chart shows the fourth quarter as the strongest.'];

export const images: Scenario = {
  name: 'image',
  title: 'Images',
  prompt: 'Draw me a sunset, then chart 3, 5, 2, 7.',
  description: 'A PNG streamed as DATA_BLOCK deltas, and a tool result carrying a PNG (TOOL_RESULT_DATA_DELTA).',
  async run(ctx) {
    const reply = await startReply(ctx);
    let call = { id: '', input: '' };
    await modelCall(ctx, reply, { input_tokens: 150, output_tokens: 410 }, async () => {
      await streamBlock(ctx, reply, IMAGE_TEXTS[0]);
      const blockId = ctx.ids.id();
      await ctx.emit(ctx.ev.dataBlockStart(reply, blockId, 'image/png'));
      for (const chunk of base64Chunks(Buffer.from(SUNSET_PNG_BASE64, 'base64'), 96)) {
        await ctx.pause(40);
        await ctx.emit(ctx.ev.dataBlockDelta(reply, blockId, chunk, 'image/png'));
      }
      await ctx.emit(ctx.ev.blockEdge('DATA_BLOCK_END', reply, blockId));
      call = await streamToolCall(ctx, reply, 'generate_chart', CHART_ARGS);
    }, 'qwen3.5-omni-plus');
    await ctx.emit(ctx.ev.toolResultStart(reply, call.id, 'generate_chart'));
    await ctx.pause(500);
    await ctx.emit(ctx.ev.toolResultTextDelta(reply, call.id, 'Chart rendered (64×64 PNG).'));
    await ctx.emit(ctx.ev.toolResultDataDelta(reply, call.id, 'image/png', { data: CHART_PNG_BASE64 }));
    await ctx.emit(ctx.ev.toolResultEnd(reply, call.id, 'success'));
    await modelCall(ctx, reply, { input_tokens: 700, output_tokens: 12 }, () => streamBlock(ctx, reply, IMAGE_TEXTS[1]));
    await endReply(ctx, reply);
  },
  intent: {
    finished_reason: 'completed',
    texts: IMAGE_TEXTS,
    data: ['image/png'],
    toolCalls: [{ name: 'generate_chart', input: CHART_ARGS, state: 'finished' }],
    toolResults: [{ name: 'generate_chart', state: 'success', text: 'Chart rendered (64×64 PNG).', dataMediaTypes: ['image/png'] }],
    usage: { input_tokens: 850, output_tokens: 422 },
  },
};

const BASH_ARGS = { command: 'ls ~/projects' };
const BASH_OUTPUT = 'agentscope\nreplyscope\npi-mono\n';
const BASH_RULES: PermissionRule[] = [
  { tool_name: 'Bash', rule_content: 'ls', behavior: 'allow', source: 'session' },
];
const CONFIRM_TEXT = 'I need to list your projects first.';
const ALLOWED_TEXT = 'You have three projects: agentscope, replyscope and pi-mono.';
const DENIED_TEXT = 'Understood — I will not run the command.';
const DENIED_OUTPUT = '<system-reminder>The execution of tool "Bash" is denied by user!</system-reminder>';

export const userConfirm: Scenario = {
  name: 'confirm',
  title: 'User confirmation',
  prompt: 'Which projects do I have?',
  description: 'A Bash call needs permission: REQUIRE_USER_CONFIRM parks the reply until you click Allow or Deny.',
  hitl: 'confirm',
  async run(ctx) {
    const reply = await startReply(ctx);
    let call = { id: '', input: '' };
    let callEnded = '';
    await modelCall(ctx, reply, { input_tokens: 180, output_tokens: 25 }, async () => {
      await streamBlock(ctx, reply, CONFIRM_TEXT);
      call = await streamToolCall(ctx, reply, 'Bash', BASH_ARGS);
      callEnded = ctx.ids.now();
    });
    const asking = toolCallBlock(ctx.ids, { id: call.id, name: 'Bash', input: call.input, state: 'asking', suggested_rules: BASH_RULES, finished_at: callEnded });
    await ctx.emit(ctx.ev.requireUserConfirm(reply, [asking]));

    const answer = await ctx.awaitResume('confirm', reply);
    const results = (answer.confirm_results ?? []) as { confirmed: boolean; tool_call: { id: string } }[];
    const allowed = results.some((r) => r.tool_call.id === call.id && r.confirmed);
    if (allowed) {
      await streamToolResult(ctx, reply, call.id, 'Bash', BASH_OUTPUT);
      await modelCall(ctx, reply, { input_tokens: 230, output_tokens: 17 }, () => streamBlock(ctx, reply, ALLOWED_TEXT));
    } else {
      await ctx.emit(ctx.ev.toolResultStart(reply, call.id, 'Bash'));
      await ctx.emit(ctx.ev.toolResultTextDelta(reply, call.id, DENIED_OUTPUT));
      await ctx.emit(ctx.ev.toolResultEnd(reply, call.id, 'denied'));
      await modelCall(ctx, reply, { input_tokens: 240, output_tokens: 11 }, () => streamBlock(ctx, reply, DENIED_TEXT));
    }
    await endReply(ctx, reply);
  },
  intent: {
    finished_reason: 'completed',
    texts: [CONFIRM_TEXT, ALLOWED_TEXT],
    toolCalls: [{ name: 'Bash', input: BASH_ARGS, state: 'finished' }],
    toolResults: [{ name: 'Bash', state: 'success', text: BASH_OUTPUT }],
    usage: { input_tokens: 410, output_tokens: 42 },
  },
  deniedIntent: {
    finished_reason: 'completed',
    texts: [CONFIRM_TEXT, DENIED_TEXT],
    toolCalls: [{ name: 'Bash', input: BASH_ARGS, state: 'finished' }],
    toolResults: [{ name: 'Bash', state: 'denied', text: DENIED_OUTPUT }],
    usage: { input_tokens: 420, output_tokens: 36 },
  },
};

const EXTERNAL_ARGS = { format: 'locale' };
const EXTERNAL_TEXTS = ['I will ask your browser for its local time.', 'Thanks — I have your browser\'s local time now.'];

export const externalExecution: Scenario = {
  name: 'external',
  title: 'External execution',
  prompt: 'What time is it where I am?',
  description: 'An external tool: REQUIRE_EXTERNAL_EXECUTION; the page runs it and POSTs EXTERNAL_EXECUTION_RESULT.',
  hitl: 'external',
  async run(ctx) {
    const reply = await startReply(ctx);
    let call = { id: '', input: '' };
    let callEnded = '';
    await modelCall(ctx, reply, { input_tokens: 160, output_tokens: 21 }, async () => {
      await streamBlock(ctx, reply, EXTERNAL_TEXTS[0]);
      call = await streamToolCall(ctx, reply, 'get_browser_time', EXTERNAL_ARGS);
      callEnded = ctx.ids.now();
    });
    // The agent opens the result, then hands the call to the client (state "submitted").
    await ctx.emit(ctx.ev.toolResultStart(reply, call.id, 'get_browser_time'));
    const submitted = toolCallBlock(ctx.ids, { id: call.id, name: 'get_browser_time', input: call.input, state: 'submitted', finished_at: callEnded });
    await ctx.emit(ctx.ev.requireExternalExecution(reply, [submitted]));

    const answer = await ctx.awaitResume('external', reply);
    // As the agent does with an ExternalExecutionResultEvent: each result becomes text deltas + TOOL_RESULT_END.
    for (const result of (answer.execution_results ?? []) as { id: string; output: unknown; state: string; metadata?: Record<string, unknown> }[]) {
      const text = typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
      await ctx.emit(ctx.ev.toolResultTextDelta(reply, result.id, text));
      await ctx.emit(ctx.ev.toolResultEnd(reply, result.id, result.state as 'success', result.metadata ?? {}));
    }
    await modelCall(ctx, reply, { input_tokens: 205, output_tokens: 12 }, () => streamBlock(ctx, reply, EXTERNAL_TEXTS[1]));
    await endReply(ctx, reply);
  },
  intent: {
    finished_reason: 'completed',
    texts: EXTERNAL_TEXTS,
    toolCalls: [{ name: 'get_browser_time', input: EXTERNAL_ARGS, state: 'finished' }],
    toolResults: [{ name: 'get_browser_time', state: 'success' }],
    usage: { input_tokens: 365, output_tokens: 33 },
  },
};
