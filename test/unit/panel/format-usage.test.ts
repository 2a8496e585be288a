// Usage as the bubble and the replies list show it: input/output tokens, and the prompt cache when it counted any
// (in AgentScope's and pi's field names) — a cached reply's tokens were only in the JSON tab.
import { describe, expect, it } from 'vitest';
import { formatUsage } from '../../../panel/lib/format.ts';

describe('formatUsage', () => {
  it('AgentScope usage with cache tokens names them', () => {
    const u = { input_tokens: 812, output_tokens: 64, cache_input_tokens: 700, cache_creation_input_tokens: 12 };
    expect(formatUsage(u)).toBe('812 in / 64 out (cache: 700 read, 12 written)');
    expect(formatUsage(u, true)).toBe('812 → 64'); // the list's narrow column stays as it was
  });

  it('pi usage with a cache read only', () => {
    expect(formatUsage({ input: 120, output: 41, cacheRead: 100, cacheWrite: 0, totalTokens: 161 })).toBe('120 in / 41 out (cache: 100 read)');
  });

  it('no cache counted, or none reported: as before', () => {
    expect(formatUsage({ input_tokens: 5, output_tokens: 6, cache_input_tokens: 0, cache_creation_input_tokens: 0 })).toBe('5 in / 6 out');
    expect(formatUsage({ input: 1, output: 2 })).toBe('1 in / 2 out');
    expect(formatUsage(undefined)).toBe('—');
  });
});
