import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who a company's managers removed: a removed person whose address is at one of the company's proved
 * domains does not join again by signing in with single sign-on ("people from these domains join
 * automatically"); an invitation accepted later lets them back in (and clears the row).
 */
export class CompanyRemovals1764010000000 implements MigrationInterface {
  name = 'CompanyRemovals1764010000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "company_removals" ("company_id" uuid NOT NULL, "user_id" uuid NOT NULL, "removed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_company_removals" PRIMARY KEY ("company_id", "user_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "company_removals" ADD CONSTRAINT "FK_company_removals_company" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "company_removals" ADD CONSTRAINT "FK_company_removals_user" FOREIGN KEY ("user_id") REFERENCES "profiles"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "company_removals"`);
  }
}
