import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rating every agent reply, not only voice turns: a thumbs down may say why (a short reason), and an
 * agent may opt in to being told of ratings (a `feedback` event POSTed to its webhook). And a streamed
 * reply cut short by the agent's error chunk keeps the agent's message with it.
 */
export class ReplyFeedback1763960000000 implements MigrationInterface {
  name = 'ReplyFeedback1763960000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "feedback_reason" character varying(500)`);
    await queryRunner.query(`ALTER TABLE "agents" ADD "send_feedback" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "interrupted_reason" character varying(500)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "interrupted_reason"`);
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "send_feedback"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "feedback_reason"`);
  }
}
