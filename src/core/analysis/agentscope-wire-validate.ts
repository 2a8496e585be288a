// An AgentScope event validated from its wire text exactly as the reference's `parseWireEvent(text)` does, reusing
// the reader's JSON.parse of the same text (the compiled fast path first, zod for the rest). Apart from the stream
// (agentscope-stream.ts) because the eviction digest (eviction-digest.ts) validates the events it reads the same way.
import { validateEvent, type ValidationResult } from '../agentscope/schema.ts';
import { checkedAgainstText } from '../agentscope/py-int-literals.ts';
import { findLoneSurrogate, findRecursionLimit } from '../agentscope/wire-json.ts';
import { fastValidateAgentScope } from './agentscope-fast-validate.ts';
import { NO_STRINGS } from './event-view.ts';

/**
 * Validating a (non-legacy) event as `parseWireEvent(text)` does, reusing the reader's JSON.parse of the same text:
 * the wire parser differs from JSON.parse only on lone surrogate escapes (checked here) and on NaN/Infinity (which
 * JSON.parse rejects, so such events never get here). Returns the failure, or undefined when the text is fine.
 */
export function wireProblem(text: string, knownWellFormed = false): ValidationResult | undefined {
  // Lone surrogates can only come from a `\u` escape or a JS string that is not well-formed (both rare): the native
  // check spares the character-by-character scan, which emoji (valid surrogate pairs) would otherwise trigger. The
  // reader may already know the text is well-formed (it checks each chunk once, see RawEvent.wellFormed).
  const wellFormed = knownWellFormed || ((text as string & { isWellFormed?: () => boolean }).isWellFormed?.() ?? false); // ES2024
  const problem = (text.includes('\\u') || !wellFormed ? findLoneSurrogate(text) : null) ?? findRecursionLimit(text);
  return problem ? { ok: false, reason: 'json', issues: [{ path: '', message: problem }] } : undefined;
}

/** Validate a (non-legacy) event from its wire text and the reader's parse of it, exactly as `parseWireEvent(text)`. */
export function validateWire(text: string, raw: unknown): ValidationResult {
  const problem = wireProblem(text);
  if (problem) return problem;
  const event = fastValidateAgentScope(raw);
  return event ? { ok: true, event, extras: NO_STRINGS } : checkedAgainstText(text, validateEvent(raw));
}
