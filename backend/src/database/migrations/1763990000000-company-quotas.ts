import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Company quotas, one row per company that has any (no row: no limit): for now the bytes its files may
 * take (`stored_bytes_limit`, null for none). An upload in progress holds its declared size in
 * `files.reserved_bytes` until its bytes are stored, so concurrent uploads count against the limit.
 */
export class CompanyQuotas1763990000000 implements MigrationInterface {
  name = 'CompanyQuotas1763990000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "company_quotas" ("company_id" uuid NOT NULL, "stored_bytes_limit" bigint, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_company_quotas" PRIMARY KEY ("company_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "company_quotas" ADD CONSTRAINT "FK_company_quotas_company" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "files" ADD "reserved_bytes" bigint NOT NULL DEFAULT '0'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "files" DROP COLUMN "reserved_bytes"`);
    await queryRunner.query(`ALTER TABLE "company_quotas" DROP CONSTRAINT "FK_company_quotas_company"`);
    await queryRunner.query(`DROP TABLE "company_quotas"`);
  }
}
