import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Regenerate and edit: the shown version of a message stays in `messages` (with its `version`), earlier
 * ones move to `message_versions`; a user message carries the round of the reply it waits for, and
 * when that reply was asked for again. `chats.revision` counts changes made to a chat's messages in
 * place (ratings, edits, regenerated replies), so a socket's catch-up notices them.
 */
export class ReplyVersions1763980000000 implements MigrationInterface {
  name = 'ReplyVersions1763980000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "message_versions" ("id" uuid NOT NULL, "message_id" uuid NOT NULL, "chat_id" uuid NOT NULL, "company_id" uuid NOT NULL, "sender_type" character varying(8) NOT NULL, "sender_id" uuid NOT NULL, "version" integer NOT NULL, "content" text NOT NULL, "feedback" character varying(8), "feedback_reason" character varying(500), "interrupted" character varying(8), "interrupted_reason" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "replaced_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b954abc61851bd3de7d39d9951b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_message_versions_chat" ON "message_versions"  ("chat_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_message_versions_version" ON "message_versions"  ("message_id", "sender_type", "version") `,
    );
    await queryRunner.query(`ALTER TABLE "chats" ADD "revision" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "version" integer NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "reply_round" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "reply_requested_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "message_versions" ADD CONSTRAINT "FK_cbdbf5b0ba2f1b01d7b2c3ec2f6" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "message_versions" ADD CONSTRAINT "FK_4019cbb31ecafdf93d1ec722cd2" FOREIGN KEY ("chat_id") REFERENCES "chats"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "message_versions" DROP CONSTRAINT "FK_4019cbb31ecafdf93d1ec722cd2"`,
    );
    await queryRunner.query(
      `ALTER TABLE "message_versions" DROP CONSTRAINT "FK_cbdbf5b0ba2f1b01d7b2c3ec2f6"`,
    );
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "reply_requested_at"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "reply_round"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "version"`);
    await queryRunner.query(`ALTER TABLE "chats" DROP COLUMN "revision"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_message_versions_version"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_message_versions_chat"`);
    await queryRunner.query(`DROP TABLE "message_versions"`);
  }
}
