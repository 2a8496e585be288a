// Tool-call input arrives as raw JSON text, streamed in pieces. While it streams we show the best-effort parse
// (pretty-printed) and say that it is partial; when it does not parse even partially, the raw text is shown.
import { Allow, parse } from 'partial-json';

export interface PrettyJson {
  text: string;
  state: 'complete' | 'partial' | 'invalid' | 'empty';
}

export function prettyJsonText(raw: string): PrettyJson {
  if (raw.trim() === '') return { text: '', state: 'empty' };
  try {
    return { text: JSON.stringify(JSON.parse(raw), null, 2), state: 'complete' };
  } catch {
    // fall through to the partial reading
  }
  try {
    const value: unknown = parse(raw, Allow.ALL);
    return { text: JSON.stringify(value, null, 2) ?? raw, state: 'partial' };
  } catch {
    return { text: raw, state: 'invalid' };
  }
}

/** Pretty JSON of any value, never throwing (cycles or BigInt would otherwise break a render). */
export function prettyValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch (err) {
    return `<unprintable: ${(err as Error).message}>`;
  }
}
