import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Company Users pages by keyset on (created_at, id), oldest first: a page of
 * a company with 10,000 members is one index range scan, no sort of them all.
 */
export class MemberListKeyset1763930000001 implements MigrationInterface {
  name = 'MemberListKeyset1763930000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_company_users_company_joined" ON "company_users" ("company_id", "created_at", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_company_users_company_joined"`);
  }
}
