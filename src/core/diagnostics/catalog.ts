// The one place every diagnostic code is documented; the panel's Diagnostics view and the CLI both read it.
import { AGENTSCOPE_DIAGNOSTIC_DOCS } from '../agentscope/diagnostic-docs.ts';
import { PI_DIAGNOSTIC_DOCS } from '../pi/diagnostic-docs.ts';
import { FRAME_DIAGNOSTIC_DOCS } from '../frames/diagnostic-docs.ts';
import { ANALYSIS_DIAGNOSTIC_DOCS } from '../analysis/diagnostic-docs.ts';
import type { DiagnosticDoc } from './types.ts';

export const DIAGNOSTIC_DOCS: readonly DiagnosticDoc[] = [
  ...ANALYSIS_DIAGNOSTIC_DOCS,
  ...FRAME_DIAGNOSTIC_DOCS,
  ...AGENTSCOPE_DIAGNOSTIC_DOCS,
  ...PI_DIAGNOSTIC_DOCS,
];

const byCode = new Map(DIAGNOSTIC_DOCS.map((d) => [d.code, d]));

export function diagnosticDoc(code: string): DiagnosticDoc | undefined {
  return byCode.get(code);
}
