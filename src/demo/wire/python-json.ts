// Serialises values the way the AgentScope service writes SSE frames: `json.dumps(event, ensure_ascii=False)`.
// Python's default separators are ", " and ": " (unlike JSON.stringify's compact form), non-ASCII characters are
// written raw, and key order is the pydantic field order of the dumped model. Frontends and Replyscope must cope
// with this exact byte shape, so the demo reproduces it rather than using JSON.stringify.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `json.dumps(value, ensure_ascii=False)` for JSON-compatible values (insertion order of object keys is kept). */
export function pythonJsonDumps(value: unknown): string {
  return dump(value, '$');
}

function dump(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) {
        // Python would write NaN/Infinity (invalid JSON); refusing is better than emitting something unparsable.
        throw new TypeError(`pythonJsonDumps: non-finite number at ${path}`);
      }
      return Number.isInteger(value) ? String(value) : pythonFloat(value);
    case 'string':
      // JSON.stringify escapes exactly what Python's ensure_ascii=False encoder escapes (", \, \b \f \n \r \t and
      // other C0 controls as lowercase \u00XX) and leaves everything else raw.
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return '[' + value.map((item, i) => dump(item, `${path}[${i}]`)).join(', ') + ']';
      }
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      return '{' + entries.map(([k, v]) => `${JSON.stringify(k)}: ${dump(v, `${path}.${k}`)}`).join(', ') + '}';
    }
    default:
      throw new TypeError(`pythonJsonDumps: cannot serialise ${typeof value} at ${path}`);
  }
}

/** Python's float repr writes a two-digit exponent (1e-07) where JS writes 1e-7; otherwise the shortest repr agrees. */
function pythonFloat(value: number): string {
  return String(value).replace(/e([+-])(\d)$/, (_m, sign: string, digit: string) => `e${sign}0${digit}`);
}
