import { Client } from 'pg';
import request from 'supertest';
import type { TestApp } from '../app.test-util';
import { type Account, nextClientAddress, registerAccount, TINY_PNG } from '../identities.test-util';
import type { Operation, SchemaObject } from './hostile-values';

/**
 * The hostile-bodies suite's world and inputs: a company with one of everything an endpoint can name,
 * valid values for every field and path parameter (the hostile one is swapped in per attempt), and
 * the table snapshot that proves a refused request wrote nothing.
 */

export interface Attempt {
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

export interface Problem {
  route: string;
  input: string;
  status: number;
  detail: string;
}

/** Percent-encodes the UTF-8 bytes of a value (lone surrogates become U+FFFD, as a browser would send). */
export function encodeSegment(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** The ids of what the world holds, by the name a fixture goes by (agentId, chatId...). */
export type WorldIds = Record<string, string>;

/** The owner of a company holding an agent, a chat, a voice call, an avatar, invitations and a member. */
export async function seedHostileWorld(
  t: TestApp,
  hookUrl: string,
): Promise<{ owner: Account; ids: WorldIds }> {
  const owner = await registerAccount(t, 'fuzz-owner');
  const headers = {
    Authorization: `Bearer ${owner.accessToken}`,
    'X-Company-Id': owner.companyId,
    'X-Forwarded-For': nextClientAddress(),
  };
  const agent = await request(t.http)
    .post('/api/agents')
    .set(headers)
    .send({ name: 'Fuzz agent', webhook: `${hookUrl}/ok`, elevenlabsAgentId: 'fuzz-voice-agent' })
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
  const ssoDomain = await request(t.http)
    .post('/api/company/sso/domains')
    .set(headers)
    .send({ domain: `fuzz-${process.pid}.example.com` })
    .expect(201);
  await t.drain();
  // The first message's delivery (delivered: a replay of it is refused).
  const deliveries = await request(t.http).get('/api/company/deliveries').set(headers).expect(200);
  const ids = {
    deliveryId: (deliveries.body as { deliveries: { id: string }[] }).deliveries[0].id,
    ssoDomainId: ssoDomain.body.id as string,
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
  return { owner, ids };
}

/**
 * The tables a refused request must leave alone, and one query that tells whether any was written. Each
 * table gets row triggers (in this throwaway database only) that note every committed insert, delete and
 * real update (a row whose values changed) as a count per table in `fuzz_writes`, and a statement
 * trigger does for TRUNCATE; the query reads the counts. A note is written in the writer's own transaction, so a write rolled
 * back leaves none, as it leaves no row. Counting notes costs a fraction of a millisecond where hashing
 * every row of every table after each refused request cost about a third of the suite's time.
 */
export async function tableSnapshotQuery(db: Client): Promise<{ tables: string[]; snapshotSql: string }> {
  const { rows } = await db.query<{ tablename: string }>(
    // audit_log records refused attempts on purpose (a failed sign-in is an entry): not a write to catch.
    // Partitions are covered by their parent's triggers.
    `SELECT c.relname AS tablename FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND c.relname NOT IN ('migrations', 'audit_log', 'fuzz_writes') ORDER BY 1`,
  );
  const tables = rows.map((r) => r.tablename);
  await db.query(`
    CREATE TABLE IF NOT EXISTS fuzz_writes (tbl text PRIMARY KEY, n bigint NOT NULL);
    CREATE OR REPLACE FUNCTION fuzz_note_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO fuzz_writes (tbl, n) VALUES (TG_TABLE_NAME, 1)
        ON CONFLICT (tbl) DO UPDATE SET n = fuzz_writes.n + 1;
      RETURN NULL;
    END $$;`);
  for (const table of tables)
    await db.query(`
      CREATE TRIGGER fuzz_write AFTER INSERT OR DELETE ON "${table}"
        FOR EACH ROW EXECUTE FUNCTION fuzz_note_write();
      CREATE TRIGGER fuzz_update AFTER UPDATE ON "${table}"
        FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION fuzz_note_write();
      CREATE TRIGGER fuzz_truncate AFTER TRUNCATE ON "${table}"
        FOR EACH STATEMENT EXECUTE FUNCTION fuzz_note_write();`);
  const snapshotSql = `SELECT tbl AS t, n::int AS n, '' AS h FROM fuzz_writes`;
  return { tables, snapshotSql };
}

/** Valid values for a body's fields and a path's parameters: what each attempt leaves as it is. */
export function validInputs(hookUrl: string, ids: WorldIds) {
  let counter = 0;

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
        return `${hookUrl}/ok`;
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
      else if (op.path.startsWith('/api/company/sso/domains/')) out[name] = ids.ssoDomainId;
      else if (op.path.startsWith('/api/company/deliveries/')) out[name] = ids.deliveryId;
      else if (op.path.startsWith('/api/files/')) out[name] = ids.fileId;
      // Served only by a signed link: any id answers 404 without one.
      else if (op.path.startsWith('/api/attachments/')) out[name] = ids.fileId;
      else if (op.path.startsWith('/api/admin/users/')) out[name] = ids.memberUserId;
      else if (op.path.startsWith('/api/admin/companies/')) out[name] = ids.companyId;
      else if (op.path.startsWith('/api/voice/messages/')) out[name] = ids.voiceMessageId;
      // Any agent reply (the voice turn is one).
      else if (op.path.startsWith('/api/messages/')) out[name] = ids.voiceMessageId;
      else if (op.path.startsWith('/api/voice/sessions/')) out[name] = ids.voiceCallId;
      else if (op.path.startsWith('/api/agent-callbacks/')) out[name] = ids.messageId;
      else throw new Error(`${op.key}: which fixture names :${name}? Add it to validParams.`);
    }
    return out;
  }

  return { validBody, validParams };
}

/** One line per problem (the first 40: one cause tends to repeat on every field). */
export function report(problems: Problem[]): string[] {
  const lines = problems.map((p) => `${p.route} ${p.status} ← ${p.input}: ${p.detail}`);
  return lines.length > 40 ? [...lines.slice(0, 40), `… and ${lines.length - 40} more`] : lines;
}
