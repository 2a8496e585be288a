// What the benchmarks use from the core, bundled by bench/core.ts the way the panel gets it (one ES bundle).
export { CaptureAnalyzer } from '../src/core/analysis/analyze.ts';
export { contextFor } from '../src/core/analysis/agentscope-stream.ts';
export { AgentScopeReplies } from '../src/core/agentscope/replies.ts';
export { parseWireEvent } from '../src/core/agentscope/schema.ts';
export { PageTextDecoder } from '../src/core/frames/utf8-chunks.ts';
