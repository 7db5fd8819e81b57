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
  summarize,
  WHOLE_BODIES,
} from '../../test/security/hostile-values';
import {
  type Attempt,
  encodeSegment,
  type Problem,
  report,
  seedHostileWorld,
  tableSnapshotQuery,
  validInputs,
  type WorldIds,
} from '../../test/security/hostile-world.test-util';

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
  let ids: WorldIds;
  let validBody: ReturnType<typeof validInputs>['validBody'];
  let validParams: ReturnType<typeof validInputs>['validParams'];
  const sent = { requests: 0, byRoute: new Map<string, number>(), byStatus: new Map<number, number>() };
  const started = Date.now();

  /** The tables as the last refused request left them; null after anything that may have written. */
  let lastSnapshot: Map<string, string> | null = null;

  async function snapshot(): Promise<Map<string, string>> {
    const { rows } = await db.query<{ t: string; n: number; h: string }>(snapshotSql);
    return new Map(rows.map((r) => [r.t, `${r.n}:${r.h}`]));
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
        detail: `refused, yet wrote to ${changed.map((c) => `${c} (writes counted ${before.get(c)?.split(':')[0] ?? 0} → ${after.get(c)?.split(':')[0] ?? 0})`).join(', ')}`,
      });
    return status;
  }

  const generated = <T>(arb: fc.Arbitrary<T>, salt: number): T[] =>
    fc.sample(arb, { seed: SEED + salt, numRuns: GENERATED_PER_KIND });

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    hook = await startFakeWebhook();
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: hook.hostPort, WEBHOOK_TIMEOUT_MS: '2000' }, fresh.url);
    db = new Client({ connectionString: fresh.url });
    await db.connect();
    ({ owner, ids } = await seedHostileWorld(t, hook.url));
    ({ validBody, validParams } = validInputs(hook.url, ids));
    const doc = (await request(t.http).get('/api/docs/json').expect(200)).body as OpenApiDocument;
    operations = operationsWithInput(doc);
    everyOperation = operationsWithInput(doc, true);
    ({ tables, snapshotSql } = await tableSnapshotQuery(db));
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
