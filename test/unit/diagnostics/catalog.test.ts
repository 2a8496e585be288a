import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DIAGNOSTIC_DOCS, diagnosticDoc } from '../../../src/core/diagnostics/catalog.ts';

const CORE = path.resolve(import.meta.dirname, '../../../src/core');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('diagnostics catalogue', () => {
  it('documents every code the core can emit, once', () => {
    const codes = new Set<string>();
    for (const file of sources(CORE)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/['"`]((?:as|pi|sse|stream)\.[a-z0-9]+(?:-[a-z0-9]+)*)['"`]/g)) codes.add(m[1]);
    }
    expect(codes.size).toBeGreaterThan(30);
    const undocumented = [...codes].filter((c) => !diagnosticDoc(c));
    expect(undocumented).toEqual([]);
    const all = DIAGNOSTIC_DOCS.map((d) => d.code);
    expect(new Set(all).size).toBe(all.length);
  });

  it('gives every code a title and an explanation', () => {
    for (const d of DIAGNOSTIC_DOCS) {
      expect(d.title.length, d.code).toBeGreaterThan(5);
      expect(d.explanation.length, d.code).toBeGreaterThan(20);
      expect(['error', 'warning', 'info']).toContain(d.severity);
    }
  });
});

describe('what a code says the reference does', () => {
  it('as.tool-input-invalid-json: the agent repairs invalid input before it gives up (tool/_toolkit.py, _json_loads_with_repair)', () => {
    const doc = diagnosticDoc('as.tool-input-invalid-json')!;
    // It said "the tool invocation will fail": the agent runs json_repair first, and a cut-off input still runs the tool.
    expect(doc.explanation).not.toMatch(/invocation .*will fail/);
    expect(doc.reference).toMatch(/_json_loads_with_repair/);
    expect(doc.reference).toMatch(/ToolJSONDecodeError/);
  });
});
