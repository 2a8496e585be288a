// pydantic reads a JSON integer literal of any length as a Python int, but a float literal (with a fraction or an
// exponent) goes through float → int, which refuses ±2^63 and beyond: `"input_tokens": 10000000000000000000` is valid,
// `"input_tokens": 1e19` is "exceeded maximum size". JSON.parse makes the same double of both, so `pyInt` takes any
// integer-valued number and the wire text decides here — only when such a value is there, which no real count is.
import { topLevelMemberText } from '../frames/json-text.ts';
import type { AgentEvent, ValidationIssue, ValidationResult } from './schema.ts';

/** The event fields validated as `pyInt` (MODEL_CALL_END's token counts). */
const INT_FIELDS = ['input_tokens', 'output_tokens', 'cache_input_tokens', 'cache_creation_input_tokens'] as const;
const TWO_63 = 2 ** 63;

/** The issues pydantic reports for `event`, validated from `text`, that JSON.parse's reading could not show. */
export function wideFloatIssues(text: string, event: AgentEvent): ValidationIssue[] {
  if (event.type !== 'MODEL_CALL_END') return [];
  const issues: ValidationIssue[] = [];
  for (const field of INT_FIELDS) {
    if (!(Math.abs(event[field]) >= TWO_63)) continue;
    const literal = topLevelMemberText(text, field);
    // (A string is read by its own rules: "9223372036854775808.0" is an int.)
    if (literal !== undefined && !literal.startsWith('"') && /[.eE]/.test(literal)) {
      issues.push({ path: field, message: 'Unable to parse input string as an integer, exceeded maximum size' });
    }
  }
  return issues;
}

/** `result` of validating the event of wire text `text`, failed if the text holds what wideFloatIssues finds. */
export function checkedAgainstText(text: string, result: ValidationResult): ValidationResult {
  if (!result.ok) return result;
  const issues = wideFloatIssues(text, result.event);
  return issues.length === 0 ? result : { ok: false, reason: 'schema', issues };
}
