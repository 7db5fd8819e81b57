import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Message quotas on company_quotas (null: no limit): the user messages each member may send per UTC
 * day, and the company in all per calendar month (UTC). Counted where messages are sent (quotas/).
 */
export class MessageQuotas1764030000000 implements MigrationInterface {
  name = 'MessageQuotas1764030000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "company_quotas" ADD "messages_per_user_per_day" integer`);
    await queryRunner.query(`ALTER TABLE "company_quotas" ADD "messages_per_company_per_month" integer`);
    await queryRunner.query(
      `ALTER TABLE "company_quotas" ADD CONSTRAINT "CHK_company_quotas_messages_positive" CHECK ("messages_per_user_per_day" >= 1 AND "messages_per_company_per_month" >= 1)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "company_quotas" DROP CONSTRAINT "CHK_company_quotas_messages_positive"`,
    );
    await queryRunner.query(`ALTER TABLE "company_quotas" DROP COLUMN "messages_per_company_per_month"`);
    await queryRunner.query(`ALTER TABLE "company_quotas" DROP COLUMN "messages_per_user_per_day"`);
  }
}
