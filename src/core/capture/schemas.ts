// zod schemas of the capture log lines (one per CaptureRecord kind + the header). They mirror model.ts exactly and
// are strict: an unknown key is an error, not something silently dropped. Times are numbers; an unknown time (NaN in
// memory) is written as JSON `null` and read back as NaN.
import { z } from 'zod';
import type { CaptureHeader, CaptureRecord } from './model.ts';

const time = z.number().nullable().transform((v) => (v === null ? Number.NaN : v));
const headers = z.array(z.tuple([z.string(), z.string()]));
const nonNegInt = z.number().int().nonnegative();
const BASE64_MESSAGE = 'expected standard base64 (A–Z a–z 0–9 + /, "=" padding only at the end, never 4n+1 characters)';
/**
 * Standard base64, padded or not; 4n+1 characters cannot be base64 (the decoder threw on them, past the reader). The
 * length is checked apart from the characters: a pattern of 4-character groups overflowed the regular expression
 * engine's backtracking stack on a multi-megabyte chunk.
 */
const base64 = z
  .string()
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, BASE64_MESSAGE)
  .refine((s) => s.length % 4 !== 1 && (!s.endsWith('=') || s.length % 4 === 0), BASE64_MESSAGE);

export const bodySchema = z.strictObject({
  text: z.string().optional(),
  base64: base64.optional(),
  size: nonNegInt,
  truncated: z.boolean().optional(),
  abridged: z.literal(true).optional(),
});

export const headerSchema = z.strictObject({
  kind: z.literal('header'),
  format: z.literal('replyscope-capture'),
  version: z.literal(1),
  tool: z.string(),
  created: z.string(),
  pageUrl: z.string().optional(),
  browser: z.string().optional(),
});

export const connectionSchema = z.strictObject({
  kind: z.literal('connection'),
  id: z.string().min(1),
  transport: z.enum(['fetch', 'eventsource', 'xhr', 'websocket', 'import']),
  frameUrl: z.string(),
  isSubframe: z.boolean().optional(),
  method: z.string(),
  url: z.string(),
  requestHeaders: headers,
  requestBody: bodySchema.optional(),
  status: z.number().int().optional(),
  statusText: z.string().optional(),
  responseHeaders: headers.optional(),
  startTime: time,
  responseTime: time.optional(),
});

export const chunkSchema = z
  .strictObject({
    kind: z.literal('chunk'),
    conn: z.string(),
    t: time,
    bytes: nonNegInt,
    text: z.string().optional(),
    base64: base64.optional(),
  })
  .refine((c) => (c.text === undefined) !== (c.base64 === undefined), {
    message: 'a chunk needs exactly one of "text" and "base64"',
  });

export const messageSchema = z.strictObject({
  kind: z.literal('message'),
  conn: z.string(),
  t: time,
  type: z.string(),
  data: z.string(),
  lastEventId: z.string(),
});

export const endSchema = z.strictObject({
  kind: z.literal('end'),
  conn: z.string(),
  t: time,
  state: z.enum(['complete', 'cancelled', 'aborted', 'error', 'evicted-open', 'open']),
  error: z.string().optional(),
});

export const evictedSchema = z.strictObject({
  kind: z.literal('evicted'),
  conn: z.string(),
  t: time,
  chunks: nonNegInt,
  messages: nonNegInt,
  bytes: nonNegInt,
  cleared: nonNegInt.optional(),
  derived: z
    .strictObject({
      events: nonNegInt,
      carry: z.string(),
      dialect: z.string().optional(),
      replies: z.array(
        z.strictObject({
          id: z.string(),
          name: z.string(),
          role: z.string(),
          message: z.record(z.string(), z.unknown()),
          orphan: z.boolean().optional(),
          ended: z.boolean().optional(),
          cutData: z.array(z.strictObject({ block: z.string(), chars: nonNegInt })).optional(),
        }),
      ),
      pi: z.strictObject({ derived: z.boolean(), state: z.unknown().optional(), reason: z.string().optional() }).optional(),
      lastCreatedAt: z.string().optional(),
      incomplete: z.string().optional(),
      lost: nonNegInt.optional(),
      carryLost: z.literal(true).optional(),
      sse: z.strictObject({ frameStart: z.boolean(), lastEventId: z.string().optional() }).optional(),
    })
    .optional(),
});

export const noticeSchema = z.strictObject({
  kind: z.literal('notice'),
  t: time,
  conn: z.string().optional(),
  level: z.enum(['info', 'warning']),
  text: z.string(),
});

export const navigationSchema = z.strictObject({
  kind: z.literal('navigation'),
  t: time,
  url: z.string(),
});

export const recordSchemas = {
  connection: connectionSchema,
  chunk: chunkSchema,
  message: messageSchema,
  end: endSchema,
  evicted: evictedSchema,
  notice: noticeSchema,
  navigation: navigationSchema,
} as const;

export type RecordKind = keyof typeof recordSchemas;

/** Parses one record line's JSON value; throws z.ZodError. */
export function parseRecord(value: unknown): CaptureRecord {
  const kind = (value as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !(kind in recordSchemas)) {
    throw new Error(`unknown record kind ${JSON.stringify(kind)} (expected one of ${Object.keys(recordSchemas).join(', ')})`);
  }
  return recordSchemas[kind as RecordKind].parse(value) as CaptureRecord;
}

export function parseHeader(value: unknown): CaptureHeader {
  return headerSchema.parse(value) as CaptureHeader;
}

/**
 * A record of a kind this version does not know — a later version's (the navigation record was one to the readers
 * before it): the reader skips it and says how many it skipped (capture-log-reader.ts), so the schema takes it too. Any
 * object whose `kind` is a string other than the known ones and not empty; nothing else of it is read.
 */
function laterKindJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { kind: { type: 'string', minLength: 1, not: { enum: ['header', ...Object.keys(recordSchemas)] } } },
    required: ['kind'],
    description: 'A record of a kind this version does not know (a later version\'s): readers of version 1 skip it, with a note that counts it.',
  };
}

/**
 * JSON Schema (draft 2020-12) of the log's line formats, derived from the zod schemas (input side: times may be null),
 * and of a later version's record kinds, which the reader skips (laterKindJsonSchema). A line is checked alone: that
 * the header is the first line, and what the lines say together (a chunk's connection declared before it, byte
 * counts), the reader checks.
 */
export function captureLogJsonSchema(): Record<string, unknown> {
  const line = z.union([headerSchema, connectionSchema, chunkSchema, messageSchema, endSchema, evictedSchema, noticeSchema, navigationSchema]);
  const schema = z.toJSONSchema(line, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    anyOf: [...(schema.anyOf as unknown[]), laterKindJsonSchema()],
    $id: 'https://replyscope.dev/schema/capture-log-v1.json',
    title: 'Replyscope capture log line (version 1)',
    description:
      'Each line of a .replyscope.ndjson capture log is one JSON value: the first a header, then records. ' +
      'A chunk carries exactly one of text/base64 (see src/core/frames/utf8-chunks.ts for the byte rule). ' +
      'A record of another kind — a later version\'s — is valid too: a reader of version 1 skips it and says how many it skipped. ' +
      'Each line is checked alone: that the header comes first, and what the lines say together (a record\'s connection declared ' +
      'on an earlier line, byte counts), the reader checks.',
  };
}
