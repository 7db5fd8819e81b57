import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Voice calls: each transcript turn is a message keyed by the provider's conversation and event ids
 * (unique per chat, so a retried save is one message), and an agent's voice turn can carry a rating.
 */
export class VoiceTurns1763830000000 implements MigrationInterface {
  name = 'VoiceTurns1763830000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "voice_event_id" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "feedback" character varying(8)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_messages_voice_event" ON "messages"  ("chat_id", "voice_event_id") WHERE voice_event_id IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_messages_voice_event"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "feedback"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "voice_event_id"`);
  }
}
