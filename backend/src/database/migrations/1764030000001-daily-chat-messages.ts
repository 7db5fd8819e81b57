import type { MigrationInterface, QueryRunner } from 'typeorm';

const ON_MESSAGE_STORED = (dailyChats: string) => `CREATE OR REPLACE FUNCTION insights_on_message_stored()
      RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        c record;
        asked timestamptz;
      BEGIN
        SELECT company_id, agent_id, user_id INTO c FROM chats WHERE id = NEW.chat_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        IF NEW.reply_to IS NULL THEN
          PERFORM insights_add(c.company_id, c.agent_id, NEW.created_at, NEW.chat_id, 1, 0, 0, NULL, NULL, NULL, 0, 0);
          ${dailyChats}
        ELSE
          -- From when the reply was asked for: the message's time, or the regenerate's or edit's.
          SELECT coalesce(reply_requested_at, created_at) INTO asked FROM messages WHERE id = NEW.reply_to;
          PERFORM insights_add(c.company_id, c.agent_id, NEW.created_at, NEW.chat_id, 0, 1, 0, NULL,
            floor(extract(epoch FROM NEW.created_at - asked) * 1000)::bigint, NULL, 0, 0);
        END IF;
        RETURN NULL;
      END $$`;

/**
 * The user messages of each chat and day (UTC) on insights_daily_chats: a member's messages of a day
 * are a sum over a few rows that a deleted chat does not take away (the rollups outlive the chats),
 * which the message quotas count from when Redis has no counter. Counted from the messages there are
 * for the days before.
 */
export class DailyChatMessages1764030000001 implements MigrationInterface {
  name = 'DailyChatMessages1764030000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "insights_daily_chats" ADD "messages" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(
      ON_MESSAGE_STORED(`INSERT INTO insights_daily_chats AS d (company_id, day, agent_id, chat_id, user_id, messages)
          VALUES (c.company_id, (NEW.created_at AT TIME ZONE 'UTC')::date, c.agent_id, NEW.chat_id, c.user_id, 1)
          ON CONFLICT (company_id, day, agent_id, chat_id) DO UPDATE SET messages = d.messages + 1;`),
    );
    await queryRunner.query(`UPDATE insights_daily_chats d SET messages = x.n
        FROM (SELECT m.chat_id, (m.created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS n
                FROM messages m WHERE m.reply_to IS NULL AND m.reply_status IS NOT NULL
               GROUP BY 1, 2) x
       WHERE d.chat_id = x.chat_id AND d.day = x.day`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      ON_MESSAGE_STORED(`INSERT INTO insights_daily_chats (company_id, day, agent_id, chat_id, user_id)
          VALUES (c.company_id, (NEW.created_at AT TIME ZONE 'UTC')::date, c.agent_id, NEW.chat_id, c.user_id)
          ON CONFLICT DO NOTHING;`),
    );
    await queryRunner.query(`ALTER TABLE "insights_daily_chats" DROP COLUMN "messages"`);
  }
}
