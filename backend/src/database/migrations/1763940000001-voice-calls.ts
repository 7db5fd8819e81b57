import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Voice calls the api started: a transcript turn must name one, and is stored only
 * in that call's chat, by its user in its company, while it lasts.
 */
export class VoiceCalls1763940000001 implements MigrationInterface {
  name = 'VoiceCalls1763940000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "voice_calls" ("id" uuid NOT NULL, "company_id" uuid NOT NULL, "user_id" uuid NOT NULL, "chat_id" uuid NOT NULL, "agent_id" character varying(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_72ab91ece82712a00fa92140908" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_voice_calls_owner" ON "voice_calls" ("company_id", "user_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_voice_calls_owner"`);
    await queryRunner.query(`DROP TABLE "voice_calls"`);
  }
}
