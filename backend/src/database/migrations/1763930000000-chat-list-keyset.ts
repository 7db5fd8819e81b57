import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The chat list pages by keyset on (updated_at, id), both descending (lists at scale): its
 * index ends with both, in that order, so a page is one index range scan with no sort. It replaces
 * IDX_chats_owner_list, which ended at updated_at.
 */
export class ChatListKeyset1763930000000 implements MigrationInterface {
  name = 'ChatListKeyset1763930000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_chats_owner_page" ON "chats" ("user_id", "company_id", "is_archived", "updated_at" DESC, "id" DESC)`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_chats_owner_list"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_chats_owner_list" ON "chats" ("user_id", "company_id", "is_archived", "updated_at")`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_chats_owner_page"`);
  }
}
