// Every published pi conformance case, run through our own core, against the output the real streamProxy produced.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runPiCase } from '../../../src/core/pi/conformance.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = path.resolve(repoRoot, '../shared/conformance/pi');
const names = readdirSync(path.join(dir, 'cases'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort();

/** README: the errorMessage of a JSON.parse failure is engine text; compare it loosely (a SyntaxError-ish text). */
function looseJsonErrors(output: { steps: unknown[]; final: unknown }, loose: boolean): unknown {
  const fix = (m: unknown) => {
    if (!loose || !m || typeof m !== 'object') return m;
    const msg = m as Record<string, unknown>;
    return typeof msg.errorMessage === 'string' && /JSON|token|property/i.test(msg.errorMessage)
      ? { ...msg, errorMessage: '<json-parse-error>' }
      : m;
  };
  return { steps: output.steps.map(fix), final: fix(output.final) };
}

describe('pi conformance cases', () => {
  it('finds the published cases', () => {
    expect(names.length).toBeGreaterThanOrEqual(20);
  });

  for (const name of names) {
    it(name, () => {
      const input = JSON.parse(readFileSync(path.join(dir, 'cases', `${name}.json`), 'utf8'));
      const expected = JSON.parse(readFileSync(path.join(dir, 'expected', `${name}.json`), 'utf8'));
      const actual = runPiCase(input);
      expect(actual.events).toEqual(expected.events);
      expect(actual.resultSettled).toEqual(expected.resultSettled);
      const loose = name === 'malformed_json_frame';
      expect(looseJsonErrors(actual, loose)).toEqual(looseJsonErrors(expected, loose));
      // Informational keys: we reproduce them too, so check them where they are engine-independent.
      expect(actual.eventDetails).toEqual(expected.eventDetails);
      expect(actual.warnings).toEqual(expected.warnings);
      expect(actual.droppedAfterCompletion).toEqual(expected.droppedAfterCompletion);
    });
  }
});
