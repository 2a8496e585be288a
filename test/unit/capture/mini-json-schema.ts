// A deliberately small JSON Schema checker (the keywords zod 4's toJSONSchema emits for the capture log), so the
// test can check written logs against the checked-in schema without a validator dependency. Unknown keywords fail
// loudly rather than pass silently.
type Schema = Record<string, unknown>;

const KNOWN = new Set(['$schema', '$id', 'title', 'description', 'type', 'const', 'enum', 'properties', 'required',
  'additionalProperties', 'items', 'prefixItems', 'anyOf', 'oneOf', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'minLength', 'pattern', 'minItems', 'maxItems', 'format', 'not']);

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'null': return v === null;
    case 'boolean': return typeof v === 'boolean';
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number';
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'array': return Array.isArray(v);
    case 'object': return typeof v === 'object' && v !== null && !Array.isArray(v);
    default: throw new Error(`mini-json-schema: unknown type ${type}`);
  }
}

export function validate(schema: Schema, v: unknown, at = '$'): string[] {
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) throw new Error(`mini-json-schema: unsupported keyword ${k} at ${at}`);
  const errs: string[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => typeOk(t, v))) return [`${at}: expected ${types.join('|')}`];
  }
  if ('const' in schema && v !== schema.const) errs.push(`${at}: expected ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(v)) errs.push(`${at}: not in enum`);
  if (typeof v === 'number') {
    if (typeof schema.minimum === 'number' && v < schema.minimum) errs.push(`${at}: < minimum`);
    if (typeof schema.maximum === 'number' && v > schema.maximum) errs.push(`${at}: > maximum`);
    if (typeof schema.exclusiveMinimum === 'number' && v <= schema.exclusiveMinimum) errs.push(`${at}: <= exclusiveMinimum`);
    if (typeof schema.exclusiveMaximum === 'number' && v >= schema.exclusiveMaximum) errs.push(`${at}: >= exclusiveMaximum`);
  }
  if (typeof v === 'string') {
    if (typeof schema.minLength === 'number' && v.length < schema.minLength) errs.push(`${at}: too short`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(v)) errs.push(`${at}: pattern`);
  }
  if (Array.isArray(v)) {
    const prefix = (schema.prefixItems as Schema[] | undefined) ?? [];
    if (typeof schema.minItems === 'number' && v.length < schema.minItems) errs.push(`${at}: too few items`);
    if (typeof schema.maxItems === 'number' && v.length > schema.maxItems) errs.push(`${at}: too many items`);
    v.forEach((item, i) => {
      const s = i < prefix.length ? prefix[i] : (schema.items as Schema | undefined);
      if (s) errs.push(...validate(s, item, `${at}[${i}]`));
    });
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const obj = v as Record<string, unknown>;
    const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const r of (schema.required as string[] | undefined) ?? []) if (!(r in obj)) errs.push(`${at}.${r}: required`);
    for (const [k, val] of Object.entries(obj)) {
      if (props[k]) errs.push(...validate(props[k], val, `${at}.${k}`));
      else if (schema.additionalProperties === false) errs.push(`${at}.${k}: not allowed`);
    }
  }
  if (schema.not !== undefined && validate(schema.not as Schema, v, at).length === 0) errs.push(`${at}: matches "not"`);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alts = schema[key] as Schema[] | undefined;
    if (!alts) continue;
    const passing = alts.filter((s) => validate(s, v, at).length === 0).length;
    if (key === 'anyOf' ? passing === 0 : passing !== 1) errs.push(`${at}: ${passing} of ${key} match`);
  }
  return errs;
}
