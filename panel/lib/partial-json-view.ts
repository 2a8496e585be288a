// Tool-call input arrives as raw JSON text, streamed in pieces. While it streams we show the best-effort parse
// (pretty-printed) and say that it is partial; when it does not parse even partially, the raw text is shown.
import { Allow, parse } from 'partial-json';

export interface PrettyJson {
  text: string;
  state: 'complete' | 'partial' | 'invalid' | 'empty' | 'unformatted';
}

/** Tool input longer than this is shown raw instead of parsed and re-printed. */
export const MAX_FORMATTED_CHARS = 1_000_000;

export function prettyJsonText(raw: string): PrettyJson {
  if (raw.trim() === '') return { text: '', state: 'empty' };
  // Parsing (worse: partially parsing) megabytes on every seek would stall the panel; such input is shown as it is.
  if (raw.length > MAX_FORMATTED_CHARS) return { text: raw, state: 'unformatted' };
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
