import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Insights rollups (insights/): hourly counters per company, agent and shard, and the chats active per
 * day, kept by triggers on messages in the same transaction as the row they count, so the numbers never
 * drift from the messages and the message path gains no round trip. Why a reply failed is kept on the
 * user message (reply_failure). The latency bucket bounds are insight-buckets.ts's, as lower bounds.
 */
export class InsightsRollups1764000000000 implements MigrationInterface {
  name = 'InsightsRollups1764000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "reply_failure" character varying(16)`);
    await queryRunner.query(
      `CREATE TABLE "insights_hourly" ("company_id" uuid NOT NULL, "hour" TIMESTAMP WITH TIME ZONE NOT NULL, "agent_id" uuid NOT NULL, "shard" smallint NOT NULL, "messages" integer NOT NULL DEFAULT 0, "replies" integer NOT NULL DEFAULT 0, "retries" integer NOT NULL DEFAULT 0, "failed_timeout" integer NOT NULL DEFAULT 0, "failed_http_status" integer NOT NULL DEFAULT 0, "failed_malformed" integer NOT NULL DEFAULT 0, "failed_ssrf_refused" integer NOT NULL DEFAULT 0, "failed_callback_expired" integer NOT NULL DEFAULT 0, "failed_network" integer NOT NULL DEFAULT 0, "failed_agent_error" integer NOT NULL DEFAULT 0, "failed_other" integer NOT NULL DEFAULT 0, "latency_count" integer NOT NULL DEFAULT 0, "latency_sum_ms" bigint NOT NULL DEFAULT 0, "latency_buckets" integer array NOT NULL, "first_chunk_count" integer NOT NULL DEFAULT 0, "first_chunk_sum_ms" bigint NOT NULL DEFAULT 0, "first_chunk_buckets" integer array NOT NULL, "thumbs_up" integer NOT NULL DEFAULT 0, "thumbs_down" integer NOT NULL DEFAULT 0, CONSTRAINT "PK_insights_hourly" PRIMARY KEY ("company_id", "hour", "agent_id", "shard"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "insights_daily_chats" ("company_id" uuid NOT NULL, "day" date NOT NULL, "agent_id" uuid NOT NULL, "chat_id" uuid NOT NULL, "user_id" uuid NOT NULL, CONSTRAINT "PK_insights_daily_chats" PRIMARY KEY ("company_id", "day", "agent_id", "chat_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "insights_hourly" ADD CONSTRAINT "FK_aa9705c41d2403ffe1f3a4d2c09" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "insights_daily_chats" ADD CONSTRAINT "FK_3cc21cc07d0e00a0a44db7e6804" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // One upsert adds a row of deltas to the (company, agent, hour, shard) counters. Latency samples
    // land in their bucket by width_bucket over the buckets' lower bounds.
    await queryRunner.query(`CREATE FUNCTION insights_add(
        p_company uuid, p_agent uuid, p_at timestamptz, p_chat uuid,
        p_messages int, p_replies int, p_retries int, p_failure text,
        p_latency_ms bigint, p_first_chunk_ms bigint, p_up int, p_down int
      ) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        lower_bounds CONSTANT int[] := '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}';
        lat int[] := array_fill(0, ARRAY[14]);
        first int[] := array_fill(0, ARRAY[14]);
        lb int := 1;
        fb int := 1;
      BEGIN
        IF p_latency_ms IS NOT NULL THEN
          lb := width_bucket(greatest(p_latency_ms, 0), lower_bounds);
          lat[lb] := 1;
        END IF;
        IF p_first_chunk_ms IS NOT NULL THEN
          fb := width_bucket(greatest(p_first_chunk_ms, 0), lower_bounds);
          first[fb] := 1;
        END IF;
        INSERT INTO insights_hourly AS r (company_id, hour, agent_id, shard, messages, replies, retries,
          failed_timeout, failed_http_status, failed_malformed, failed_ssrf_refused, failed_callback_expired,
          failed_network, failed_agent_error, failed_other,
          latency_count, latency_sum_ms, latency_buckets, first_chunk_count, first_chunk_sum_ms,
          first_chunk_buckets, thumbs_up, thumbs_down)
        VALUES (p_company, date_trunc('hour', p_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', p_agent,
          hashtext(p_chat::text) & 7, p_messages, p_replies, p_retries,
          (p_failure IS NOT DISTINCT FROM 'timeout')::int, (p_failure IS NOT DISTINCT FROM 'http_status')::int, (p_failure IS NOT DISTINCT FROM 'malformed')::int,
          (p_failure IS NOT DISTINCT FROM 'ssrf_refused')::int, (p_failure IS NOT DISTINCT FROM 'callback_expired')::int,
          (p_failure IS NOT DISTINCT FROM 'network')::int, (p_failure IS NOT DISTINCT FROM 'agent_error')::int,
          (p_failure IS NOT NULL AND p_failure NOT IN ('timeout', 'http_status', 'malformed', 'ssrf_refused',
            'callback_expired', 'network', 'agent_error'))::int,
          (p_latency_ms IS NOT NULL)::int, coalesce(greatest(p_latency_ms, 0), 0), lat,
          (p_first_chunk_ms IS NOT NULL)::int, coalesce(greatest(p_first_chunk_ms, 0), 0), first,
          p_up, p_down)
        ON CONFLICT (company_id, hour, agent_id, shard) DO UPDATE SET
          messages = r.messages + EXCLUDED.messages,
          replies = r.replies + EXCLUDED.replies,
          retries = r.retries + EXCLUDED.retries,
          failed_timeout = r.failed_timeout + EXCLUDED.failed_timeout,
          failed_http_status = r.failed_http_status + EXCLUDED.failed_http_status,
          failed_malformed = r.failed_malformed + EXCLUDED.failed_malformed,
          failed_ssrf_refused = r.failed_ssrf_refused + EXCLUDED.failed_ssrf_refused,
          failed_callback_expired = r.failed_callback_expired + EXCLUDED.failed_callback_expired,
          failed_network = r.failed_network + EXCLUDED.failed_network,
          failed_agent_error = r.failed_agent_error + EXCLUDED.failed_agent_error,
          failed_other = r.failed_other + EXCLUDED.failed_other,
          latency_count = r.latency_count + EXCLUDED.latency_count,
          latency_sum_ms = r.latency_sum_ms + EXCLUDED.latency_sum_ms,
          latency_buckets[lb] = r.latency_buckets[lb] + EXCLUDED.latency_buckets[lb],
          first_chunk_count = r.first_chunk_count + EXCLUDED.first_chunk_count,
          first_chunk_sum_ms = r.first_chunk_sum_ms + EXCLUDED.first_chunk_sum_ms,
          first_chunk_buckets[fb] = r.first_chunk_buckets[fb] + EXCLUDED.first_chunk_buckets[fb],
          thumbs_up = r.thumbs_up + EXCLUDED.thumbs_up,
          thumbs_down = r.thumbs_down + EXCLUDED.thumbs_down;
      END $$`);
    // A user message sent to its agent, or a reply to one (with its latency).
    await queryRunner.query(`CREATE FUNCTION insights_on_message_stored() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        c record;
        asked timestamptz;
      BEGIN
        SELECT company_id, agent_id, user_id INTO c FROM chats WHERE id = NEW.chat_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        IF NEW.reply_to IS NULL THEN
          PERFORM insights_add(c.company_id, c.agent_id, NEW.created_at, NEW.chat_id, 1, 0, 0, NULL, NULL, NULL, 0, 0);
          INSERT INTO insights_daily_chats (company_id, day, agent_id, chat_id, user_id)
          VALUES (c.company_id, (NEW.created_at AT TIME ZONE 'UTC')::date, c.agent_id, NEW.chat_id, c.user_id)
          ON CONFLICT DO NOTHING;
        ELSE
          -- From when the reply was asked for: the message's time, or the regenerate's or edit's.
          SELECT coalesce(reply_requested_at, created_at) INTO asked FROM messages WHERE id = NEW.reply_to;
          PERFORM insights_add(c.company_id, c.agent_id, NEW.created_at, NEW.chat_id, 0, 1, 0, NULL,
            floor(extract(epoch FROM NEW.created_at - asked) * 1000)::bigint, NULL, 0, 0);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER insights_message_stored AFTER INSERT ON messages FOR EACH ROW
      WHEN (NEW.reply_status = 'pending' OR NEW.reply_to IS NOT NULL)
      EXECUTE FUNCTION insights_on_message_stored()`);
    // A reply failed (once: only from pending), in the hour it failed, by kind.
    await queryRunner.query(`CREATE FUNCTION insights_on_reply_failed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        c record;
      BEGIN
        SELECT company_id, agent_id INTO c FROM chats WHERE id = NEW.chat_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        PERFORM insights_add(c.company_id, c.agent_id, now(), NEW.chat_id, 0, 0, 0,
          coalesce(NEW.reply_failure, 'other'), NULL, NULL, 0, 0);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER insights_reply_failed AFTER UPDATE OF reply_status ON messages
      FOR EACH ROW WHEN (OLD.reply_status = 'pending' AND NEW.reply_status = 'failed')
      EXECUTE FUNCTION insights_on_reply_failed()`);
    // A rating given, changed or taken back: counted in the hour of the reply rated.
    await queryRunner.query(`CREATE FUNCTION insights_on_rating() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        c record;
      BEGIN
        SELECT company_id, agent_id INTO c FROM chats WHERE id = NEW.chat_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        PERFORM insights_add(c.company_id, c.agent_id, NEW.created_at, NEW.chat_id, 0, 0, 0, NULL, NULL, NULL,
          (NEW.feedback IS NOT DISTINCT FROM 'like')::int - (OLD.feedback IS NOT DISTINCT FROM 'like')::int,
          (NEW.feedback IS NOT DISTINCT FROM 'dislike')::int - (OLD.feedback IS NOT DISTINCT FROM 'dislike')::int);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER insights_rating AFTER UPDATE OF feedback ON messages
      FOR EACH ROW WHEN (NEW.sender_type = 'agent' AND OLD.feedback IS DISTINCT FROM NEW.feedback)
      EXECUTE FUNCTION insights_on_rating()`);

    // Past hours no longer need their shards (few writes reach them: a late failure, a rating): the
    // compaction job (InsightsCompactor) merges their rows into shard 0, so a range reads 8 times fewer.
    const sums = (column: string) =>
      Array.from({ length: 14 }, (_, i) => `sum(${column}[${i + 1}])`).join(', ');
    const plus = (column: string) =>
      `${column} = ARRAY(SELECT a + b FROM unnest(r.${column}, EXCLUDED.${column}) WITH ORDINALITY AS t(a, b, i) ORDER BY i)`;
    const counters = [
      'messages',
      'replies',
      'retries',
      'failed_timeout',
      'failed_http_status',
      'failed_malformed',
      'failed_ssrf_refused',
      'failed_callback_expired',
      'failed_network',
      'failed_agent_error',
      'failed_other',
      'latency_count',
      'latency_sum_ms',
      'first_chunk_count',
      'first_chunk_sum_ms',
      'thumbs_up',
      'thumbs_down',
    ];
    await queryRunner.query(`CREATE FUNCTION insights_compact(p_before timestamptz) RETURNS int LANGUAGE sql AS $$
      WITH moved AS (
        DELETE FROM insights_hourly WHERE shard <> 0 AND hour < p_before RETURNING *
      ), merged AS (
        INSERT INTO insights_hourly AS r (company_id, hour, agent_id, shard, ${counters.join(', ')},
          latency_buckets, first_chunk_buckets)
        SELECT company_id, hour, agent_id, 0, ${counters.map((c) => `sum(${c})`).join(', ')},
          ARRAY[${sums('latency_buckets')}]::int[], ARRAY[${sums('first_chunk_buckets')}]::int[]
        FROM moved GROUP BY company_id, hour, agent_id
        ON CONFLICT (company_id, hour, agent_id, shard) DO UPDATE SET
          ${counters.map((c) => `${c} = r.${c} + EXCLUDED.${c}`).join(', ')},
          ${plus('latency_buckets')}, ${plus('first_chunk_buckets')}
        RETURNING 1
      )
      SELECT count(*)::int FROM moved
    $$`);
    // What was there before: counted once, now (the triggers are in place in the same transaction).
    // A failure's kind was not kept then ('other'), and it counts in the hour of the message it failed.
    await queryRunner.query(`INSERT INTO insights_hourly AS r (company_id, hour, agent_id, shard, messages, replies,
        failed_other, latency_count, latency_sum_ms, latency_buckets, first_chunk_buckets, thumbs_up, thumbs_down)
      SELECT c.company_id, date_trunc('hour', m.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', c.agent_id,
          0,
          count(*) FILTER (WHERE m.reply_to IS NULL AND m.reply_status IS NOT NULL)::int,
          count(*) FILTER (WHERE m.reply_to IS NOT NULL)::int,
          count(*) FILTER (WHERE m.reply_status = 'failed')::int,
          count(l.ms)::int, coalesce(sum(l.ms), 0)::bigint,
          ARRAY[
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 1),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 2),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 3),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 4),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 5),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 6),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 7),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 8),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 9),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 10),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 11),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 12),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 13),
            count(*) FILTER (WHERE width_bucket(l.ms, '{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]) = 14)
          ]::int[],
          array_fill(0, ARRAY[14]),
          count(*) FILTER (WHERE m.sender_type = 'agent' AND m.feedback = 'like')::int,
          count(*) FILTER (WHERE m.sender_type = 'agent' AND m.feedback = 'dislike')::int
        FROM messages m JOIN chats c ON c.id = m.chat_id
        LEFT JOIN messages asked ON asked.id = m.reply_to
        CROSS JOIN LATERAL (SELECT floor(extract(epoch FROM m.created_at - coalesce(asked.reply_requested_at, asked.created_at)) * 1000)::bigint AS ms) l
       WHERE m.reply_status IS NOT NULL OR m.reply_to IS NOT NULL OR (m.sender_type = 'agent' AND m.feedback IS NOT NULL)
       GROUP BY 1, 2, 3`);
    await queryRunner.query(`INSERT INTO insights_daily_chats (company_id, day, agent_id, chat_id, user_id)
      SELECT DISTINCT c.company_id, (m.created_at AT TIME ZONE 'UTC')::date, c.agent_id, m.chat_id, c.user_id
        FROM messages m JOIN chats c ON c.id = m.chat_id
       WHERE m.reply_to IS NULL AND m.reply_status IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION insights_compact(timestamptz)`);
    await queryRunner.query(`DROP TRIGGER insights_rating ON messages`);
    await queryRunner.query(`DROP FUNCTION insights_on_rating()`);
    await queryRunner.query(`DROP TRIGGER insights_reply_failed ON messages`);
    await queryRunner.query(`DROP FUNCTION insights_on_reply_failed()`);
    await queryRunner.query(`DROP TRIGGER insights_message_stored ON messages`);
    await queryRunner.query(`DROP FUNCTION insights_on_message_stored()`);
    await queryRunner.query(
      `DROP FUNCTION insights_add(uuid, uuid, timestamptz, uuid, int, int, int, text, bigint, bigint, int, int)`,
    );
    await queryRunner.query(`DROP TABLE "insights_daily_chats"`);
    await queryRunner.query(`DROP TABLE "insights_hourly"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "reply_failure"`);
  }
}
