// One-call readings of a captured body: chunk records -> page text per chunk -> frames (+ client comparison).
// The incremental classes stay available for live use; these helpers serve imports, the CLI and tests.
import type { ChunkRecord } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { compareWithAgentScopeClient } from './client-comparison.ts';
import { AgentScopeClientReader } from './client-reading.ts';
import { NdjsonDecoder, type NdjsonFrame } from './ndjson.ts';
import { SseSpecDecoder, type SpecFrame, type SseProblem, type SpecTail } from './sse-spec.ts';
import { PageTextDecoder } from './utf8-chunks.ts';

export interface TimedText {
  text: string;
  t: number;
}

/**
 * The text the page's TextDecoder produced for each chunk record of one connection (in record order). A flush record
 * (`bytes: 0`, end of body mid-character) yields the U+FFFD the page's final decode() gives.
 */
export function chunkTexts(chunks: readonly ChunkRecord[]): TimedText[] {
  const dec = new PageTextDecoder();
  const out = chunks.map((c) => ({ text: dec.push(c), t: c.t }));
  const rest = dec.end(); // a character another writer's base64 left unfinished at the end of the body
  if (rest && out.length > 0) out[out.length - 1].text += rest;
  return out;
}

export interface SseReading {
  frames: SpecFrame[];
  retries: { t: number; ms: number }[];
  problems: SseProblem[];
  /** Present when the body ended: what the spec discarded at the end. */
  tail?: SpecTail;
  /** `sse.*` diagnostics; `index` is a frame index (frames.length for the text after the last frame). */
  diagnostics: Diagnostic[];
}

/**
 * Spec reading of an SSE body; with `client` also the comparison with that client's reading (AgentScope web UI / pi
 * streamProxy, which read alike; frames get `clientNote`). `ended` = the body is complete (end-of-body rules apply).
 */
export function readSse(texts: readonly TimedText[], opts: { ended: boolean; client?: 'agentscope' | 'pi' }): SseReading {
  const spec = new SseSpecDecoder();
  // pi-agent-core's streamProxy reads SSE exactly like the AgentScope web UI (see client-reading.ts)
  const client = opts.client ? new AgentScopeClientReader() : undefined;
  for (const { text, t } of texts) {
    spec.push(text, t);
    client?.push(text, t);
  }
  const tail = opts.ended ? spec.finish() : undefined;
  const frameAt = (offset: number) => {
    let i = 0;
    while (i < spec.frames.length && spec.frames.end(i) <= offset) i++;
    return i;
  };
  const diagnostics: Diagnostic[] = spec.problems.map((p) => ({
    code: 'sse.ignored-line',
    severity: 'warning' as const,
    index: frameAt(p.start),
    message: `${p.message} — line ${JSON.stringify(p.line.length > 60 ? p.line.slice(0, 60) + '…' : p.line)} is ignored`,
  }));
  if (client) {
    const name = opts.client === 'pi' ? "pi's streamProxy" : 'the AgentScope client';
    const cmp = compareWithAgentScopeClient(spec.frames, tail, client, opts.ended ? client.finish() : undefined, name);
    diagnostics.push(...cmp.diagnostics);
    for (const [i, note] of cmp.notes) spec.frames.setClientNote(i, note);
  }
  diagnostics.sort((a, b) => a.index - b.index);
  return { frames: spec.frames.toArray() as SpecFrame[], retries: spec.retries, problems: spec.problems, ...(tail ? { tail } : {}), diagnostics };
}

/** NDJSON reading of a body. */
export function readNdjson(texts: readonly TimedText[], opts: { ended: boolean }): NdjsonFrame[] {
  const dec = new NdjsonDecoder();
  for (const { text, t } of texts) dec.push(text, t);
  if (opts.ended) dec.finish();
  return dec.frames;
}
