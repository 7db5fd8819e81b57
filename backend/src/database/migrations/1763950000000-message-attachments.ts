import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files attached to messages: the `files` table (avatars, logos) gains the attachment's company, chat,
 * message, name and kind, and where its bytes are (`storage`); large bytes go to `file_chunks` (about
 * 1 MB a row, so they are written and read a piece at a time) or to an S3 bucket.
 */
export class MessageAttachments1763950000000 implements MigrationInterface {
  name = 'MessageAttachments1763950000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "file_chunks" ("file_id" uuid NOT NULL, "idx" integer NOT NULL, "data" bytea NOT NULL, CONSTRAINT "PK_8d82f2dce49cdb92cdf760407b4" PRIMARY KEY ("file_id", "idx"))`,
    );
    // Uncompressed out of line: a read of a slice (substring) fetches only its pages, and the bytes of
    // most attachments (images, PDF, Office files) are compressed already.
    await queryRunner.query(`ALTER TABLE "file_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL`);
    await queryRunner.query(
      `ALTER TABLE "files" ADD "storage" character varying(8) NOT NULL DEFAULT 'inline'`,
    );
    await queryRunner.query(`ALTER TABLE "files" ADD "company_id" uuid`);
    await queryRunner.query(`ALTER TABLE "files" ADD "chat_id" uuid`);
    await queryRunner.query(`ALTER TABLE "files" ADD "message_id" uuid`);
    await queryRunner.query(`ALTER TABLE "files" ADD "position" smallint`);
    await queryRunner.query(`ALTER TABLE "files" ADD "name" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "files" ADD "kind" character varying(8)`);
    await queryRunner.query(`ALTER TABLE "files" ADD "width" integer`);
    await queryRunner.query(`ALTER TABLE "files" ADD "height" integer`);
    await queryRunner.query(`ALTER TABLE "files" ALTER COLUMN "data" DROP NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_files_company" ON "files"  ("company_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_files_chat" ON "files"  ("chat_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_files_message" ON "files"  ("message_id") `);
    await queryRunner.query(
      `ALTER TABLE "files" ADD CONSTRAINT "FK_c00637e6c7bc8a791e0e72d6d9c" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "files" ADD CONSTRAINT "FK_03256733f0f304b3d0540c3c33a" FOREIGN KEY ("chat_id") REFERENCES "chats"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "files" ADD CONSTRAINT "FK_63ee0a7c78bd7a1968a0893edab" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "file_chunks" ADD CONSTRAINT "FK_617e13364db5af550e924954530" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "file_chunks" DROP CONSTRAINT "FK_617e13364db5af550e924954530"`);
    await queryRunner.query(`ALTER TABLE "files" DROP CONSTRAINT "FK_63ee0a7c78bd7a1968a0893edab"`);
    await queryRunner.query(`ALTER TABLE "files" DROP CONSTRAINT "FK_03256733f0f304b3d0540c3c33a"`);
    await queryRunner.query(`ALTER TABLE "files" DROP CONSTRAINT "FK_c00637e6c7bc8a791e0e72d6d9c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_files_message"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_files_chat"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_files_company"`);
    // Attachments have no place in the older schema: only the inline files (avatars, logos) stay.
    await queryRunner.query(`DELETE FROM "files" WHERE "storage" <> 'inline'`);
    await queryRunner.query(`ALTER TABLE "files" ALTER COLUMN "data" SET NOT NULL`);
    for (const column of [
      'height',
      'width',
      'kind',
      'name',
      'position',
      'message_id',
      'chat_id',
      'company_id',
      'storage',
    ]) {
      await queryRunner.query(`ALTER TABLE "files" DROP COLUMN "${column}"`);
    }
    await queryRunner.query(`DROP TABLE "file_chunks"`);
  }
}
