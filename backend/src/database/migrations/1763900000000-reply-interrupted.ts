import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Streaming replies: an agent reply cut short keeps what came, marked with why it ended
 * early ('stopped' by the user, 'timeout' when the agent stalled mid-stream, 'error' on an error chunk).
 */
export class ReplyInterrupted1763900000000 implements MigrationInterface {
  name = 'ReplyInterrupted1763900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "interrupted" character varying(8)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "interrupted"`);
  }
}
