// Scripted pi proxy streams: the events a pi-agent-core proxy server sends to `streamProxy` (pi-ai
// AssistantMessageEvents with `partial` stripped; see ProxyAssistantMessageEvent in pi-agent-core's proxy.d.ts).

export type ProxyEvent = { type: string } & Record<string, unknown>;

export interface PiUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

export interface PiScenario {
  name: string;
  title: string;
  prompt: string;
  description: string;
  /** The frames in order; `pause` is the delay before the frame at normal speed. */
  frames: { event: ProxyEvent; pause: number }[];
  /** What streamProxy's final message must contain (checked by the e2e test in a real browser). */
  intent: { stopReason: string; texts: string[]; thinking?: string[]; toolCalls?: { name: string; arguments: unknown }[]; errorMessage?: string };
}

function usage(input: number, output: number, cacheRead = 0): PiUsage {
  // Prices per million tokens of a mid-range model, so the panel has realistic cost numbers to show.
  const cost = { input: (input * 3) / 1e6, output: (output * 15) / 1e6, cacheRead: (cacheRead * 0.3) / 1e6, cacheWrite: 0, total: 0 };
  cost.total = cost.input + cost.output + cost.cacheRead;
  return { input, output, cacheRead, cacheWrite: 0, totalTokens: input + output + cacheRead, cost };
}

function pieces(text: string, size = 5): string[] {
  const out: string[] = [];
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** Frames of a streamed text (or thinking) block at `contentIndex`. */
function block(kind: 'text' | 'thinking', contentIndex: number, text: string): PiScenario['frames'] {
  return [
    { event: { type: `${kind}_start`, contentIndex }, pause: 200 },
    ...pieces(text).map((delta, i) => ({ event: { type: `${kind}_delta`, contentIndex, delta }, pause: 20 + ((i * 29) % 40) })),
    { event: { type: `${kind}_end`, contentIndex }, pause: 10 },
  ];
}

function toolCall(contentIndex: number, id: string, toolName: string, args: unknown): PiScenario['frames'] {
  return [
    { event: { type: 'toolcall_start', contentIndex, id, toolName }, pause: 100 },
    ...pieces(JSON.stringify(args), 6).map((delta) => ({ event: { type: 'toolcall_delta', contentIndex, delta }, pause: 25 })),
    { event: { type: 'toolcall_end', contentIndex }, pause: 10 },
  ];
}

const PI_TEXT = 'pi streams through a proxy: the server strips `partial`, the client rebuilds the message.';
const PI_THOUGHT = 'The user wants the package name. I should read package.json.';
const PI_LEAD = 'Let me read the manifest.';
const PI_ARGS = { path: 'package.json', limit: 20 };
const PI_PARTIAL = 'Starting the analysis';
const PI_ERROR = '529 overloaded_error: the upstream provider is overloaded';

export const PI_SCENARIOS: readonly PiScenario[] = [
  {
    name: 'pi-text',
    title: 'pi: text',
    prompt: 'How does the pi proxy work?',
    description: 'start, one text block, done(stop).',
    frames: [{ event: { type: 'start' }, pause: 300 }, ...block('text', 0, PI_TEXT),
      { event: { type: 'done', reason: 'stop', usage: usage(35, 22) }, pause: 10 }],
    intent: { stopReason: 'stop', texts: [PI_TEXT] },
  },
  {
    name: 'pi-tool',
    title: 'pi: thinking + tool call',
    prompt: 'What is this package called?',
    description: 'Thinking, text and a tool call with streamed JSON arguments; done(toolUse).',
    frames: [{ event: { type: 'start' }, pause: 300 }, ...block('thinking', 0, PI_THOUGHT), ...block('text', 1, PI_LEAD),
      ...toolCall(2, 'toolu_demo_01', 'read', PI_ARGS),
      { event: { type: 'done', reason: 'toolUse', usage: usage(410, 58, 380) }, pause: 10 }],
    intent: { stopReason: 'toolUse', thinking: [PI_THOUGHT], texts: [PI_LEAD], toolCalls: [{ name: 'read', arguments: PI_ARGS }] },
  },
  {
    name: 'pi-error',
    title: 'pi: provider error',
    prompt: 'Analyse the repository.',
    description: 'Some text, then error(error) from the provider.',
    frames: [{ event: { type: 'start' }, pause: 300 }, ...block('text', 0, PI_PARTIAL),
      { event: { type: 'error', reason: 'error', errorMessage: PI_ERROR, usage: usage(120, 4) }, pause: 600 }],
    intent: { stopReason: 'error', texts: [PI_PARTIAL], errorMessage: PI_ERROR },
  },
  {
    name: 'pi-broken',
    title: 'pi: broken stream',
    prompt: 'Show me a broken pi stream.',
    description: 'A toolcall_delta aimed at a text block: streamProxy throws and turns it into an error event.',
    frames: [{ event: { type: 'start' }, pause: 300 }, ...block('text', 0, PI_PARTIAL),
      { event: { type: 'toolcall_delta', contentIndex: 0, delta: '{"oops": true}' }, pause: 50 },
      { event: { type: 'done', reason: 'stop', usage: usage(50, 6) }, pause: 10 }],
    intent: { stopReason: 'error', texts: [PI_PARTIAL], errorMessage: 'Received toolcall_delta for non-toolCall content' },
  },
];

export function piScenarioFor(body: { options?: { metadata?: unknown }; context?: { messages?: unknown } }): PiScenario {
  const meta = body.options?.metadata as { scenario?: unknown } | undefined;
  const byName = PI_SCENARIOS.find((s) => s.name === meta?.scenario);
  if (byName) return byName;
  const messages = Array.isArray(body.context?.messages) ? (body.context.messages as { role?: string; content?: unknown }[]) : [];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const text = typeof last?.content === 'string' ? last.content : '';
  return PI_SCENARIOS.find((s) => s.prompt === text.trim()) ?? PI_SCENARIOS[0];
}
