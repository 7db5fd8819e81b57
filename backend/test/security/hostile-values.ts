/**
 * What an attacker sends instead of a well-formed request, by kind, as fast-check arbitraries; and the
 * API's operations read from its OpenAPI description. Used by hostile-bodies.int-spec.ts.
 */
import fc from 'fast-check';

// ---------------------------------------------------------------------------------------------------
// Operations from the OpenAPI description

export interface SchemaObject {
  type?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  example?: unknown;
  nullable?: boolean;
  enum?: unknown[];
  $ref?: string;
}

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: SchemaObject;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

export interface Operation {
  /** `POST /api/chats/:id/messages` (Express form, as the matrix names routes). */
  key: string;
  method: string;
  /** Express-style path with `:params`. */
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: SchemaObject }>;
  body: { kind: 'json'; schema: SchemaObject } | { kind: 'multipart'; fileField: string } | null;
  companyScoped: boolean;
}

function resolve(doc: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() as string;
    return resolve(doc, doc.components?.schemas?.[name]);
  }
  return schema;
}

/** Every operation that takes a body, path parameters or a query (or every operation: `all`). */
export function operationsWithInput(doc: OpenApiDocument, all = false): Operation[] {
  const out: Operation[] = [];
  for (const [openApiPath, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
      const query = params
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: p.name, schema: resolve(doc, p.schema) }));
      const content = op.requestBody?.content ?? {};
      let body: Operation['body'] = null;
      if (content['application/json'])
        body = { kind: 'json', schema: resolve(doc, content['application/json'].schema) };
      else if (content['multipart/form-data']) {
        const props = resolve(doc, content['multipart/form-data'].schema).properties ?? {};
        body = { kind: 'multipart', fileField: Object.keys(props)[0] ?? 'file' };
      }
      if (!all && !body && !pathParams.length && !query.length) continue;
      const path = openApiPath.replace(/\{(\w+)\}/g, ':$1');
      out.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams,
        query,
        body,
        companyScoped: params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-company-id'),
      });
    }
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

// ---------------------------------------------------------------------------------------------------
// Hostile values, by kind

/** A request body sent as raw bytes, for what JSON.stringify cannot produce (depth, huge literals). */
export class RawBody {
  constructor(
    readonly text: string | Buffer,
    readonly contentType = 'application/json',
    readonly label = typeof text === 'string' ? summarize(text) : `${text.length} raw bytes`,
  ) {}
}

export function summarize(value: unknown): string {
  let text: string;
  if (value instanceof RawBody) return `raw(${value.contentType}) ${value.label}`;
  if (value === undefined) return 'undefined';
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length <= 120) return text;
  return `${text.slice(0, 60)}…(${text.length} chars)…${text.slice(-30)}`;
}

const nested = (open: string, close: string, depth: number, inner = '') =>
  open.repeat(depth) + inner + close.repeat(depth);

export const HOSTILE_KINDS = [
  'wrong types',
  'explicit null',
  'NUL characters',
  'lone surrogates',
  '100k-character strings',
  'deep nesting',
  'huge numbers',
  'prototype keys',
] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

const PROTO_KEY = JSON.parse('{"__proto__":{"isSuperadmin":true,"role":"owner"}}') as object;

/**
 * Values put in place of one field (or one query value), per kind: every listed value is tried on
 * every field; `generated` adds values fast-check draws (seeded) on top.
 */
export const FIELD_VALUES: Record<HostileKind, { listed: unknown[]; generated?: fc.Arbitrary<unknown> }> = {
  'wrong types': {
    listed: [0, 1.5, true, [], ['a', 1], { a: 'b' }, 'true', ''],
    generated: fc.jsonValue({ maxDepth: 2 }),
  },
  'explicit null': { listed: [null, [null], { value: null }] },
  'NUL characters': {
    listed: ['\u0000', 'a\u0000b', 'ada\u0000@example.com', 'https://example.com/\u0000', ['\u0000']],
    generated: fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  },
  'lone surrogates': {
    listed: ['\uD800', 'a\uDFFFb', 'ada\uD800@example.com', '\uDBFF@\uDC00.com', '\uDC00\uD800', ['\uD800']],
    generated: fc.string({ maxLength: 10 }).map((s) => `${s}\uD83D`),
  },
  '100k-character strings': {
    listed: ['a'.repeat(100_000), `${'b'.repeat(99_980)}@example.com`, ' '.repeat(100_000)],
  },
  'deep nesting': {
    listed: [
      JSON.parse(nested('[', ']', 30)),
      JSON.parse(nested('{"a":', '}', 30, '1')),
      JSON.parse(nested('[', ']', 1000)),
    ],
  },
  'huge numbers': {
    listed: [
      1e308,
      -1e308,
      Number.MAX_SAFE_INTEGER + 2,
      2 ** 63,
      5e-324,
      '99999999999999999999999999',
      '9223372036854775808',
      '-9223372036854775809',
      '1e400',
    ],
    generated: fc.oneof(fc.double(), fc.bigInt().map(String)),
  },
  'prototype keys': {
    listed: [PROTO_KEY, { constructor: { prototype: { isSuperadmin: true } } }, { toString: 'x' }],
  },
};

/** Whole bodies that are hostile as a whole (not field by field). */
export const WHOLE_BODIES: Record<string, unknown[]> = {
  'missing fields': [{}, new RawBody(''), new RawBody('{}')],
  'wrong types': [
    [],
    [{}],
    new RawBody('"text"'),
    new RawBody('42'),
    new RawBody('null'),
    new RawBody('true'),
    new RawBody('{"a":'),
    new RawBody('{"name":"a","name":null}'),
    new RawBody('name=a&webhook=b', 'application/x-www-form-urlencoded'),
    new RawBody('{"name":"a"}', 'text/plain'),
    new RawBody(
      Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
      'application/json',
      'invalid UTF-8',
    ),
    new RawBody(Buffer.from('{"a":1}', 'utf16le'), 'application/json; charset=utf-16', 'UTF-16 body'),
  ],
  'explicit null': [new RawBody('null'), [null]],
  'deep nesting': [
    new RawBody(nested('[', ']', 40_000), 'application/json', '[ ×40000 ]'),
    new RawBody(nested('{"a":', '}', 15_000, '1'), 'application/json', '{"a": ×15000'),
    new RawBody(`{"name":${nested('[', ']', 30_000)}}`, 'application/json', '{"name": [ ×30000 ]}'),
    new RawBody(nested('[', '', 50_000), 'application/json', '[ ×50000 unclosed'),
  ],
  'huge numbers': [
    new RawBody('{"name":1e400,"limit":1e400}'),
    new RawBody(`{"name":${'9'.repeat(5000)}}`),
    new RawBody('{"isArchived":-0,"signed":1e-400}'),
  ],
  '100k-character strings': [
    { [`k${'x'.repeat(100)}`]: 'y'.repeat(90_000) },
    Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, i])),
    new RawBody(`"${'é'.repeat(60_000)}"`, 'application/json', '"é"×60000 (over the size limit)'),
  ],
  'prototype keys': [
    new RawBody('{"__proto__":{"isSuperadmin":true,"role":"owner"}}'),
    PROTO_KEY,
    new RawBody('{"constructor":{"prototype":{"role":"owner"}}}'),
    { isSuperadmin: true, role: 'owner', userId: '00000000-0000-0000-0000-000000000000' },
  ],
};

/** Values for a path parameter that should name an object (besides the fast-check drawn ones). */
export const NON_UUID_IDS: string[] = [
  'not-a-uuid',
  '0',
  '-1',
  '1e400',
  '99999999999999999999',
  'default-agent',
  "' OR '1'='1",
  '../../../etc/passwd',
  '..',
  '%00',
  '\u0000',
  '\uD800',
  '\uD83D\uDE00',
  'x'.repeat(5000),
  '00000000-0000-0000-0000-000000000000',
  'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
  '__proto__',
  'constructor',
  'null',
  '[]',
];

/** Path segments sent as they are (not percent-encoded again): broken escapes and encoded tricks. */
export const RAW_PATH_SEGMENTS: string[] = [
  '%ED%A0%80',
  '%E0%A4%A',
  '%00',
  '%2e%2e%2f%2e%2e',
  '%C0%AE',
  '%uD800',
];

export const GENERATED_IDS: fc.Arbitrary<string> = fc.oneof(
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }),
);

/** Hostile query strings (raw, after `?`), beyond per-value substitution. */
export const QUERY_SHAPES: Array<(name: string) => string> = [
  (n: string) => `${n}=1&${n}=2`,
  (n: string) => `${n}[]=true`,
  (n: string) => `${n}[$ne]=x`,
  (n: string) => `${n}=%00`,
  (n: string) => `${n}=%ED%A0%80`,
  (n: string) => `${n}=%E0%A4%A`,
  (n: string) => `${n}=${'9'.repeat(400)}`,
  (n: string) => `${n}=-1`,
  (n: string) => `${n}=0x10`,
  (n: string) => `${n}=1e400`,
  (n: string) => `${n}=NaN`,
  (n: string) => `${n}=`,
  (n: string) => `${n}`,
  (n: string) => `${n}=${'a'.repeat(100_000)}`,
  (n: string) => `__proto__[${n}]=1`,
];

/** Any of the above, for the mixed property run. */
export const ANY_FIELD_VALUE: fc.Arbitrary<unknown> = fc.oneof(
  ...HOSTILE_KINDS.map((kind) => fc.constantFrom(...FIELD_VALUES[kind].listed)),
  ...HOSTILE_KINDS.flatMap((kind) => {
    const generated = FIELD_VALUES[kind].generated;
    return generated ? [generated] : [];
  }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 50, unit: 'binary' }),
);

/** X-Company-Id values other than a company of the caller's. */
export const HOSTILE_COMPANY_HEADERS: string[] = [
  '',
  ' ',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  "' OR '1'='1",
  '%00',
  'x'.repeat(8000),
  '\u00e9\u00e9',
  'null',
];

/** Authorization header values that are not `Bearer <a token of a live session>`. */
export const HOSTILE_AUTHORIZATION: string[] = [
  'Bearer',
  'Bearer ',
  'Bearer  ',
  `Bearer ${'a'.repeat(8000)}`,
  'Bearer a.b.c',
  'Bearer eyJhbGciOiJub25lIn0.e30.',
  'Basic YWRhOnBhc3N3b3Jk',
  'Bearer null',
  'Bearer undefined',
];

/** Refresh cookie values (sb_refresh) that are no refresh token. */
export const HOSTILE_REFRESH_COOKIES: string[] = [
  '',
  'garbage',
  '.',
  '..',
  'a.b.c',
  '%00',
  '%E0%A4%A',
  '%ED%A0%80',
  `00000000-0000-0000-0000-000000000000.${'x'.repeat(3000)}`,
  'j%3A%7B%22a%22%3A1%7D',
  `${'y'.repeat(3900)}`,
];
