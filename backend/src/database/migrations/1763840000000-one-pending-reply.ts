import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * At most one user message per chat waits for its agent's reply, enforced by the database: a send is
 * one statement (lock the chat, check it, insert, move the chat up), and a statement that waited for the
 * chat's lock still reads the messages as they were when it began; the unique index is what refuses the
 * second of two simultaneous sends. Any extra pending replies left by that race are failed first, the
 * newest kept.
 */
export class OnePendingReply1763840000000 implements MigrationInterface {
  name = 'OnePendingReply1763840000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE messages SET reply_status = 'failed' WHERE reply_status = 'pending' AND id NOT IN (
         SELECT DISTINCT ON (chat_id) id FROM messages WHERE reply_status = 'pending'
         ORDER BY chat_id, seq DESC)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_messages_pending" ON "messages"  ("chat_id") WHERE reply_status = 'pending'`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_messages_pending"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_messages_pending" ON "messages"  ("chat_id") WHERE reply_status = 'pending'`,
    );
    await queryRunner.query(`DROP INDEX "public"."UQ_messages_pending"`);
  }
}
