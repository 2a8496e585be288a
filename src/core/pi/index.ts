// Public surface of the pi protocol core (pi-ai AssistantMessageEvent, the streamProxy wire form, pi-agent-core
// AgentEvent): schemas, the client's reading rules, the pure step-wise reconstruction, checks, diagnostics, replies.
export * from './schema.ts';
export * from './validate.ts';
export * from './streaming-json.ts';
export * from './message-state.ts';
export * from './proxy-reducer.ts';
export * from './client-reading.ts';
export * from './message-check.ts';
export * from './diagnostic-codes.ts';
export * from './diagnostic-docs.ts';
export * from './agent-sequence.ts';
export * from './lifecycle.ts';
export * from './session.ts';
export * from './replies.ts';
export * from './conformance.ts';
