// Public surface of the AgentScope protocol core.
export * from './schema.ts';
export * from './message.ts';
export * from './append-event.ts';
export * from './conformance.ts';
export * from './legacy.ts';
export * from './lifecycle.ts';
export * from './replies.ts';
export { AGENTSCOPE_DIAGNOSTIC_DOCS } from './diagnostic-docs.ts';
export { parseWireJson, findLoneSurrogate } from './wire-json.ts';
export { PyError, pyAnyUrl, pyB64Decode, pyB64Encode } from './py-compat.ts';
