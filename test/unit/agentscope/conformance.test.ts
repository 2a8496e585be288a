// Every public AgentScope conformance case, run through Replyscope's own core, against the reference's output.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentScopeCase } from '../../../src/core/agentscope/conformance.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dir = path.resolve(repoRoot, '../shared/conformance/agentscope');
const names = readdirSync(path.join(dir, 'cases')).filter((f) => f.endsWith('.json')).sort();

describe('AgentScope conformance (public cases)', () => {
  it('finds the cases', () => {
    expect(names.length).toBeGreaterThan(30);
  });
  for (const name of names) {
    it(name, () => {
      const input = JSON.parse(readFileSync(path.join(dir, 'cases', name), 'utf8'));
      const expected = JSON.parse(readFileSync(path.join(dir, 'expected', name), 'utf8'));
      const out = runAgentScopeCase(input);
      expect(out.initial).toEqual(expected.initial);
      expect(out.step_indices).toEqual(expected.step_indices);
      expect(out.steps).toEqual(expected.steps);
      expect(out.final).toEqual(expected.final);
      expect(out.status).toEqual(expected.status);
      expect(out.invalid.map((x) => x.index)).toEqual(expected.invalid.map((x: { index: number }) => x.index));
      expect(out.errors.map((x) => x.index)).toEqual(expected.errors.map((x: { index: number }) => x.index));
    });
  }
});
