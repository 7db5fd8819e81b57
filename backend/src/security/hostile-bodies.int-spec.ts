import fc from 'fast-check';
import { Client } from 'pg';
import request from 'supertest';
import { createFreshDatabase, createTestApp, type TestApp } from '../../test/app.test-util';
import { type Account, nextClientAddress, registerAccount, TINY_PNG } from '../../test/identities.test-util';
import { startFakeWebhook, type FakeWebhook } from '../../test/realtime.test-util';
import {
  ANY_FIELD_VALUE,
  FIELD_VALUES,
  GENERATED_IDS,
  HOSTILE_AUTHORIZATION,
  HOSTILE_COMPANY_HEADERS,
  HOSTILE_KINDS,
  HOSTILE_REFRESH_COOKIES,
  type HostileKind,
  NON_UUID_IDS,
  type OpenApiDocument,
  type Operation,
  operationsWithInput,
  QUERY_SHAPES,
  RAW_PATH_SEGMENTS,
  RawBody,
  type SchemaObject,
  summarize,
  WHOLE_BODIES,
} from '../../test/security/hostile-values';

const WHOLE_BODIES_ALL: unknown[] = Object.values(WHOLE_BODIES).flat();
const WHOLE_BODIES_FOR = (kind: string): unknown[] => WHOLE_BODIES[kind] ?? [];

/**
 * Every operation of the OpenAPI description that takes a body, path parameters or a query gets
 * hostile input. Two promises are checked on every request: no 5xx, and a refused request (4xx)
 * leaves every table exactly as it was. FUZZ_SEED=<n> replays a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const MIXED_RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const GENERATED_PER_KIND = 3;
/** FUZZ_LOG_STATUS=403,301 prints every request answered with one of these statuses. */
const LOG_STATUSES = new Set((process.env.FUZZ_LOG_STATUS ?? '').split(',').filter(Boolean).map(Number));

interface Attempt {
  params?: Record<string, string>;
  /** Already encoded path segments, sent as they are. */
  rawParams?: Record<string, string>;
  /** Raw query string (without `?`). */
  query?: string;
  /** undefined: no body. */
  body?: unknown;
  multipart?: { field: string; data: Buffer; filename: string; contentType: string } | 'none';
  /** What is hostile about it, for the report (default: a summary of the whole input). */
  label?: string;
  /** Headers in place of the owner's (Authorization, X-Company-Id, Cookie). */
  headers?: Record<string, string | string[]>;
}

interface Problem {
  route: string;
  input: string;
  status: number;
  detail: string;
}

/** Percent-encodes the UTF-8 bytes of a value (lone surrogates become U+FFFD, as a browser would send). */
function encodeSegment(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

// Every endpoint × every input kind: minutes on a busy 2-core machine, each step bounded by its own timeouts.
jest.setTimeout(180_000);

describe('hostile bodies, params and queries on every endpoint that takes input', () => {
  let t: TestApp;
  let fresh: Awaited<ReturnType<typeof createFreshDatabase>>;
  let hook: FakeWebhook;
  let db: Client;
  let owner: Account;
  let operations: Operation[];
  let everyOperation: Operation[];
  let tables: string[];
  let snapshotSql: string;
  let ids: Record<string, string>;
  let counter = 0;
  const sent = { requests: 0, byRoute: new Map<string, number>(), byStatus: new Map<number, number>() };
  const started = Date.now();

  /** The tables as the last refused request left them; null after anything that may have written. */
  let lastSnapshot: Map<string, string> | null = null;

  async function snapshot(): Promise<Map<string, string>> {
    const { rows } = await db.query<{ t: string; n: number; h: string }>(snapshotSql);
    return new Map(rows.map((r) => [r.t, `${r.n}:${r.h}`]));
  }

  function baseline(name: string, schema: SchemaObject): unknown {
    counter += 1;
    switch (name) {
      case 'email':
        return `fuzz-${process.pid}-${counter}@example.com`;
      case 'password':
      case 'newPassword':
        return 'correct horse battery';
      case 'currentPassword':
        return 'not the password'; // never the real one: the owner keeps their password and sessions
      case 'webhook':
        return `${hook.url}/ok`;
      case 'agentId':
        return ids.agentId;
      case 'chatId':
        return ids.chatId;
      case 'conversationId':
        return 'fuzz_conversation';
      case 'eventId':
        return `fuzz-${counter}`;
      case 'token':
        return 'not-a-token';
      case 'elevenlabsAgentId':
        return 'voice-agent';
      case 'isActive':
        return true;
      case 'before':
      case 'after':
        return '1';
      case 'limit':
        return 10;
      default:
        break;
    }
    if (schema.example !== undefined) return schema.example;
    if (schema.enum?.length) return schema.enum[0];
    switch (schema.type) {
      case 'boolean':
        return false;
      case 'integer':
      case 'number':
        return 1;
      case 'array':
        return ['fuzz'];
      case 'object':
        return {};
      default:
        return `fuzz ${name}`;
    }
  }

  function validBody(op: Operation): Record<string, unknown> {
    if (op.body?.kind !== 'json') return {};
    const props = op.body.schema.properties ?? {};
    return Object.fromEntries(Object.entries(props).map(([name, schema]) => [name, baseline(name, schema)]));
  }

  function validParams(op: Operation): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of op.pathParams) {
      if (op.path.startsWith('/api/agents/')) out[name] = ids.agentId;
      else if (op.path.startsWith('/api/chats/')) out[name] = ids.chatId;
      else if (op.path.startsWith('/api/companies/')) out[name] = ids.companyId;
      else if (op.path.startsWith('/api/company/agents/')) out[name] = ids.agentId;
      else if (op.path.startsWith('/api/company/invitations/')) out[name] = ids.invitationId;
      else if (op.path.startsWith('/api/company/members/')) out[name] = ids.memberUserId;
      else if (op.path.startsWith('/api/files/')) out[name] = ids.fileId;
      else if (op.path.startsWith('/api/admin/users/')) out[name] = ids.memberUserId;
      else if (op.path.startsWith('/api/admin/companies/')) out[name] = ids.companyId;
      else if (op.path.startsWith('/api/voice/messages/')) out[name] = ids.voiceMessageId;
      else if (op.path.startsWith('/api/voice/sessions/')) out[name] = ids.voiceCallId;
      else if (op.path.startsWith('/api/agent-callbacks/')) out[name] = ids.messageId;
      else throw new Error(`${op.key}: which fixture names :${name}? Add it to validParams.`);
    }
    return out;
  }

  async function attempt(op: Operation, a: Attempt, problems: Problem[]): Promise<number> {
    const params = { ...validParams(op), ...a.params };
    const path = op.path.replace(/:(\w+)/g, (_m, name: string) =>
      a.rawParams?.[name] !== undefined ? a.rawParams[name] : encodeSegment(params[name]),
    );
    const url = a.query !== undefined ? `${path}?${a.query}` : path;
    const input =
      a.label ??
      [
        a.params || a.rawParams ? `params ${summarize({ ...a.params, ...a.rawParams })}` : '',
        a.query !== undefined ? `query ${summarize(a.query)}` : '',
        a.body !== undefined ? `body ${summarize(a.body)}` : '',
        a.multipart
          ? `multipart ${a.multipart === 'none' ? 'without a file' : summarize(a.multipart.filename)}`
          : '',
      ]
        .filter(Boolean)
        .join(', ');

    const before = lastSnapshot ?? (await snapshot());
    lastSnapshot = null;
    const method = op.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete' | 'put';
    const client = request(t.http);
    let req = client[method](url)
      .set('Authorization', `Bearer ${owner.accessToken}`)
      .set('X-Company-Id', ids.companyId)
      .set('X-Forwarded-For', nextClientAddress())
      .set('Origin', t.config.appOrigin);
    // An array sends the header once per value (superagent's types allow that for Cookie only).
    for (const [name, value] of Object.entries(a.headers ?? {})) req = req.set(name, value as string);
    if (a.multipart === 'none') req = req.field('note', 'no file');
    else if (a.multipart)
      req = req.attach(a.multipart.field, a.multipart.data, {
        filename: a.multipart.filename,
        contentType: a.multipart.contentType,
      });
    else if (a.body instanceof RawBody) req = req.set('Content-Type', a.body.contentType).send(a.body.text);
    else if (a.body !== undefined)
      req = req.set('Content-Type', 'application/json').send(JSON.stringify(a.body));
    let status: number;
    let detail = '';
    try {
      const res = await req;
      status = res.status;
      detail = JSON.stringify(res.body).slice(0, 300);
    } catch (error) {
      status = 599;
      detail = `no answer: ${(error as Error).message}`;
    }
    sent.requests += 1;
    sent.byRoute.set(op.key, (sent.byRoute.get(op.key) ?? 0) + 1);
    sent.byStatus.set(status, (sent.byStatus.get(status) ?? 0) + 1);
    if (LOG_STATUSES.has(status)) console.log(`${op.key} ${status} ← ${input}: ${detail}`);
    if (status >= 500) problems.push({ route: op.key, input, status, detail });
    if (status < 400) {
      await t.drain();
      return status;
    }
    const after = await snapshot();
    lastSnapshot = after;
    const changed = tables.filter((table) => before.get(table) !== after.get(table));
    if (changed.length)
      problems.push({
        route: op.key,
        input,
        status,
        detail: `refused, yet wrote to ${changed.map((c) => `${c} (${before.get(c)?.split(':')[0]} → ${after.get(c)?.split(':')[0]} rows)`).join(', ')}`,
      });
    return status;
  }

  /** One line per problem (the first 40: one cause tends to repeat on every field). */
  function report(problems: Problem[]): string[] {
    const lines = problems.map((p) => `${p.route} ${p.status} ← ${p.input}: ${p.detail}`);
    return lines.length > 40 ? [...lines.slice(0, 40), `… and ${lines.length - 40} more`] : lines;
  }

  const generated = <T>(arb: fc.Arbitrary<T>, salt: number): T[] =>
    fc.sample(arb, { seed: SEED + salt, numRuns: GENERATED_PER_KIND });

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    hook = await startFakeWebhook();
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: hook.hostPort, WEBHOOK_TIMEOUT_MS: '2000' }, fresh.url);
    db = new Client({ connectionString: fresh.url });
    await db.connect();
    owner = await registerAccount(t, 'fuzz-owner');
    const headers = {
      Authorization: `Bearer ${owner.accessToken}`,
      'X-Company-Id': owner.companyId,
      'X-Forwarded-For': nextClientAddress(),
    };
    const agent = await request(t.http)
      .post('/api/agents')
      .set(headers)
      .send({ name: 'Fuzz agent', webhook: `${hook.url}/ok`, elevenlabsAgentId: 'fuzz-voice-agent' })
      .expect(201);
    const first = await request(t.http)
      .post('/api/messages')
      .set(headers)
      .send({ agentId: agent.body.id, content: 'first' })
      .expect(201);
    // A transcript belongs to a call the api started.
    const call = await request(t.http)
      .post('/api/voice/sessions')
      .set(headers)
      .send({ agentId: agent.body.id, chatId: first.body.chat.id })
      .expect(201);
    const voiceTurn = await request(t.http)
      .post('/api/voice/transcripts')
      .set(headers)
      .send({
        callId: call.body.callId,
        chatId: first.body.chat.id,
        role: 'agent',
        text: 'said',
        conversationId: 'fuzz',
        eventId: '1',
      })
      .expect(201);
    const avatar = await request(t.http)
      .post('/api/me/avatar')
      .set(headers)
      .attach('file', TINY_PNG, { filename: 'a.png', contentType: 'image/png' })
      .expect(201);
    // Every user has a default agent in every company, made on first use: use it once now, so that
    // a refused request that is the first to touch it does not look like a write.
    await request(t.http).get('/api/agents').set(headers).expect(200);
    // A pending invitation, and a member who joined through another one.
    const invite = (email: string) =>
      request(t.http).post('/api/company/invitations').set(headers).send({ email, role: 'user' }).expect(201);
    const pending = await invite(`fuzz-pending-${process.pid}@example.com`);
    const joining = await invite(`fuzz-member-${process.pid}@example.com`);
    const member = await request(t.http)
      .post('/api/auth/register-invited')
      .set('X-Forwarded-For', nextClientAddress())
      .send({
        token: new URL(joining.body.link as string).searchParams.get('token'),
        firstName: 'Fuzz',
        lastName: 'Member',
        password: 'correct horse battery',
      })
      .expect(201);
    await t.drain();
    ids = {
      invitationId: pending.body.invitation.id as string,
      memberUserId: member.body.user.id as string,
      companyId: owner.companyId,
      agentId: agent.body.id as string,
      chatId: first.body.chat.id as string,
      messageId: first.body.message.id as string,
      voiceMessageId: voiceTurn.body.id as string,
      voiceCallId: call.body.callId as string,
      fileId: String(avatar.body.avatar).split('/').pop() as string,
    };
    const doc = (await request(t.http).get('/api/docs/json').expect(200)).body as OpenApiDocument;
    operations = operationsWithInput(doc);
    everyOperation = operationsWithInput(doc, true);
    const { rows } = await db.query<{ tablename: string }>(
      // audit_log records refused attempts on purpose (a failed sign-in is an entry): not a write to catch.
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('migrations', 'audit_log') ORDER BY 1",
    );
    tables = rows.map((r) => r.tablename);
    snapshotSql = tables
      .map(
        (table) =>
          `SELECT '${table}' AS t, count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM "${table}" x`,
      )
      .join(' UNION ALL ');
    console.log(`hostile bodies: seed ${SEED} (FUZZ_SEED=${SEED} replays), ${operations.length} operations`);
  });

  beforeEach(() => {
    lastSnapshot = null;
  });

  afterAll(async () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (operations)
      console.log(
        `hostile bodies: ${sent.requests} requests over ${sent.byRoute.size} endpoints ` +
          `(${operations.length} take a body, params or a query; ${everyOperation.length} in all) in ${seconds} s (seed ${SEED})\n` +
          `  statuses: ${[...sent.byStatus]
            .sort(([a], [b]) => a - b)
            .map(([status, n]) => `${status}×${n}`)
            .join(' ')}\n` +
          [...sent.byRoute].map(([route, n]) => `  ${route}: ${n}`).join('\n'),
      );
    await db?.end();
    await t?.close();
    await hook?.close();
    await fresh?.drop();
  });

  it('reads the endpoints that take input from the OpenAPI description', () => {
    const keys = operations.map((o) => o.key);
    for (const expected of [
      'POST /api/auth/register',
      'POST /api/auth/login',
      'PATCH /api/me',
      'POST /api/agents',
      'PATCH /api/agents/:id',
      'GET /api/chats/:id/messages',
      'POST /api/messages',
      'GET /api/files/:id',
    ])
      expect(keys).toContain(expected);
    expect(tables).toEqual(expect.arrayContaining(['profiles', 'companies', 'agents', 'chats', 'messages']));
  });

  it('sees a write in its table snapshot (the check below would catch one)', async () => {
    const before = await snapshot();
    await request(t.http)
      .patch(`/api/chats/${ids.chatId}`)
      .set('Authorization', `Bearer ${owner.accessToken}`)
      .set('X-Company-Id', ids.companyId)
      .send({ title: 'Renamed once' })
      .expect(200);
    const after = await snapshot();
    expect(tables.filter((table) => before.get(table) !== after.get(table))).toEqual(['chats']);
  });

  it('refuses bodies with missing fields', async () => {
    const problems: Problem[] = [];
    for (const op of operations) {
      if (op.body?.kind !== 'json') continue;
      const valid = validBody(op);
      for (const field of op.body.schema.required ?? Object.keys(valid)) {
        const { [field]: _dropped, ...rest } = valid;
        await attempt(op, { body: rest, label: `body without ${field}` }, problems);
      }
      await attempt(op, { body: undefined }, problems);
      for (const body of WHOLE_BODIES_FOR('missing fields')) await attempt(op, { body }, problems);
    }
    expect(report(problems)).toEqual([]);
  });

  describe.each(HOSTILE_KINDS.map((kind, i) => [kind, i] as const))(
    '%s',
    (kind: HostileKind, salt: number) => {
      it('in any body field, in any query value, and as a whole body: no 5xx, no write when refused', async () => {
        const problems: Problem[] = [];
        const values = [...FIELD_VALUES[kind].listed];
        const more = FIELD_VALUES[kind].generated;
        if (more) values.push(...generated(more, salt));
        for (const op of operations) {
          if (op.body?.kind === 'json') {
            const valid = validBody(op);
            for (const field of Object.keys(valid)) {
              for (const value of values)
                await attempt(op, { body: { ...validBody(op), [field]: value } }, problems);
            }
            for (const body of WHOLE_BODIES_FOR(kind)) await attempt(op, { body }, problems);
          }
          for (const { name } of op.query) {
            for (const value of values) {
              const text = typeof value === 'string' ? value : JSON.stringify(value);
              await attempt(op, { query: `${name}=${encodeSegment(text ?? '')}` }, problems);
            }
          }
        }
        expect(report(problems)).toEqual([]);
      });
    },
  );

  it('refuses ids that are not ids, in every path parameter', async () => {
    const problems: Problem[] = [];
    const values = [...NON_UUID_IDS, ...generated(GENERATED_IDS, 100)];
    for (const op of operations) {
      for (const name of op.pathParams) {
        const body = op.body?.kind === 'json' ? validBody(op) : undefined;
        const multipart =
          op.body?.kind === 'multipart'
            ? { field: op.body.fileField, data: TINY_PNG, filename: 'a.png', contentType: 'image/png' }
            : undefined;
        for (const value of values) {
          const status = await attempt(op, { params: { [name]: value }, body, multipart }, problems);
          if (status < 400 && value !== 'default-agent')
            problems.push({
              route: op.key,
              input: `:${name} = ${summarize(value)}`,
              status,
              detail: 'accepted a made-up id',
            });
        }
        for (const raw of RAW_PATH_SEGMENTS)
          await attempt(op, { rawParams: { [name]: raw }, body, multipart }, problems);
      }
    }
    expect(report(problems)).toEqual([]);
  });

  it('refuses hostile query strings', async () => {
    const problems: Problem[] = [];
    for (const op of operations) {
      for (const { name } of op.query) {
        for (const shape of QUERY_SHAPES) await attempt(op, { query: shape(name) }, problems);
      }
    }
    expect(report(problems)).toEqual([]);
  });

  it('refuses hostile company and authorization headers on every endpoint', async () => {
    const problems: Problem[] = [];
    const other = await registerAccount(t, 'fuzz-other');
    const companies = [...HOSTILE_COMPANY_HEADERS, other.companyId, ids.companyId.toUpperCase()];
    for (const op of everyOperation) {
      // Made-up ids for deletes, so that an accepted request cannot remove the fixtures.
      const params = op.method === 'DELETE' ? { id: 'not-a-uuid' } : undefined;
      // A new body each time: a new email per registration, so that each one reaches the same checks.
      const body = () => (op.body?.kind === 'json' ? validBody(op) : undefined);
      if (op.companyScoped) {
        for (const company of companies) {
          const label = `X-Company-Id: ${summarize(company)}`;
          const status = await attempt(
            op,
            { params, body: body(), headers: { 'X-Company-Id': company }, label },
            problems,
          );
          if (status < 400 && company !== ids.companyId.toUpperCase())
            problems.push({ route: op.key, input: label, status, detail: 'answered for a company not ours' });
        }
        await attempt(
          op,
          {
            params,
            body: body(),
            headers: { 'X-Company-Id': [other.companyId, ids.companyId] },
            label: 'two X-Company-Id headers',
          },
          problems,
        );
      }
      for (const authorization of HOSTILE_AUTHORIZATION) {
        const label = `Authorization: ${summarize(authorization)}`;
        await attempt(
          op,
          { params, body: body(), headers: { Authorization: authorization }, label },
          problems,
        );
      }
    }
    expect(report(problems)).toEqual([]);
  });

  it('refuses hostile refresh cookies, and a wrong secret for a real session does not end it', async () => {
    const problems: Problem[] = [];
    const victim = await registerAccount(t, 'fuzz-victim');
    const sid = (
      JSON.parse(Buffer.from(victim.accessToken.split('.')[1], 'base64url').toString()) as { sid: string }
    ).sid;
    const cookies = [
      ...HOSTILE_REFRESH_COOKIES,
      `${sid}.wrong-secret`,
      `${sid}.`,
      `${sid}.${'z'.repeat(3000)}`,
    ];
    const routes = everyOperation.filter((op) =>
      ['POST /api/auth/refresh', 'POST /api/auth/logout'].includes(op.key),
    );
    expect(routes).toHaveLength(2);
    for (const op of routes) {
      for (const cookie of cookies) {
        const label = `Cookie: sb_refresh=${summarize(cookie)}`;
        const status = await attempt(op, { headers: { Cookie: `sb_refresh=${cookie}` }, label }, problems);
        if (op.key.endsWith('refresh') && status < 400)
          problems.push({ route: op.key, input: label, status, detail: 'refreshed without a valid token' });
      }
    }
    await request(t.http).get('/api/me').set('Authorization', `Bearer ${victim.accessToken}`).expect(200);
    expect(report(problems)).toEqual([]);
  });

  it('refuses uploads that are not images', async () => {
    const problems: Problem[] = [];
    const files = [
      { data: Buffer.from('not an image'), filename: 'a.png', contentType: 'image/png' },
      { data: Buffer.alloc(0), filename: 'empty.png', contentType: 'image/png' },
      { data: Buffer.from('<svg onload="alert(1)"/>'), filename: 'x.svg', contentType: 'image/svg+xml' },
      { data: TINY_PNG.subarray(0, 30), filename: 'truncated.png', contentType: 'image/png' },
      { data: TINY_PNG, filename: `a\u0000.png`, contentType: 'image/png' },
      { data: TINY_PNG, filename: `${'n'.repeat(10_000)}.png`, contentType: 'image/png' },
    ];
    for (const op of operations) {
      if (op.body?.kind !== 'multipart') continue;
      await attempt(op, { multipart: 'none' }, problems);
      await attempt(op, { body: { file: 'not a file' } }, problems);
      for (const file of files)
        await attempt(op, { multipart: { field: op.body.fileField, ...file } }, problems);
      await attempt(
        op,
        { multipart: { field: 'other', data: TINY_PNG, filename: 'a.png', contentType: 'image/png' } },
        problems,
      );
    }
    expect(report(problems)).toEqual([]);
  });

  it('survives a fast-check mix of everything above', async () => {
    const problems: Problem[] = [];
    const fieldValue = (valid: unknown) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(valid) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 3, arbitrary: ANY_FIELD_VALUE },
      );
    const attemptFor = (op: Operation): fc.Arbitrary<Attempt> => {
      const valid = validBody(op);
      const body =
        op.body?.kind === 'json'
          ? fc.oneof(
              {
                weight: 5,
                arbitrary: fc
                  .record(Object.fromEntries(Object.entries(valid).map(([k, v]) => [k, fieldValue(v)])))
                  .chain((b) =>
                    fc
                      .option(fc.dictionary(fc.string({ maxLength: 12 }), ANY_FIELD_VALUE, { maxKeys: 2 }), {
                        nil: undefined,
                      })
                      .map((extra) => ({ ...b, ...extra })),
                  )
                  .map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined))),
              },
              { weight: 1, arbitrary: fc.constantFrom(...WHOLE_BODIES_ALL) },
            )
          : fc.constant(undefined);
      const hostileParams = fc.record(
        Object.fromEntries(
          op.pathParams.map((p) => [p, fc.oneof(fc.constantFrom(...NON_UUID_IDS), GENERATED_IDS)]),
        ),
      );
      // A delete with a real id would delete the fixture the other runs need: deletes get made-up ids only.
      const params = !op.pathParams.length
        ? fc.constant(undefined)
        : op.method === 'DELETE'
          ? hostileParams
          : fc.option(hostileParams, { nil: undefined });
      const query = op.query.length
        ? fc.option(
            fc
              .array(
                fc.tuple(
                  fc.constantFrom(...op.query.map((q) => q.name)),
                  fc.oneof(
                    ANY_FIELD_VALUE.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
                  ),
                ),
                { minLength: 1, maxLength: 3 },
              )
              .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeSegment(v)}`).join('&')),
            { nil: undefined },
          )
        : fc.constant(undefined);
      return fc.record({ body, params, query }).map((a) => {
        const out: Attempt = {};
        if (a.body !== undefined) out.body = a.body;
        if (a.params !== undefined) out.params = a.params;
        if (a.query !== undefined) out.query = a.query;
        return out;
      });
    };
    const eligible = operations.filter((op) => op.body?.kind !== 'multipart');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...eligible).chain((op) => attemptFor(op).map((a) => [op, a] as const)),
        async ([op, a]) => {
          const before = problems.length;
          await attempt(op, a, problems);
          if (problems.length > before) throw new Error(report(problems.slice(before)).join('\n'));
        },
      ),
      { seed: SEED, numRuns: MIXED_RUNS, endOnFailure: true },
    );
  });
});
