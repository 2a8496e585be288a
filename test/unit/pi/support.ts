// What pi tests hand the real streamProxy (or write as its request body): a model that is never called — the stream
// comes from a loopback server or a capture — and a one-message context.

/** A pi-ai model description whose baseUrl leads nowhere (port 9, discard): no test reaches a real provider. */
export function piTestModel(overrides: Record<string, unknown> = {}) {
  return { id: 'm', name: 'M', api: 'openai-completions', provider: 'p', baseUrl: 'http://127.0.0.1:9/unused', reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100, ...overrides };
}

export const piTestContext = { messages: [{ role: 'user', content: 'hi', timestamp: 0 }] };
