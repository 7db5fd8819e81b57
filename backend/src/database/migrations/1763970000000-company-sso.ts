import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-company single sign-on: the company's OpenID Connect provider (the client secret kept sealed,
 * never in clear) and the email domains it covers. A domain counts only once proved by a mailed link
 * (only the link token's SHA-256 is stored), and a proved domain belongs to one company only.
 */
export class CompanySso1763970000000 implements MigrationInterface {
  name = 'CompanySso1763970000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "company_sso" ("company_id" uuid NOT NULL, "enabled" boolean NOT NULL DEFAULT false, "issuer" character varying(2000) NOT NULL, "client_id" character varying(500) NOT NULL, "client_secret_sealed" character varying(2000), "require_sso" boolean NOT NULL DEFAULT false, "auto_join" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_company_sso" PRIMARY KEY ("company_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "company_sso" ADD CONSTRAINT "FK_company_sso_company" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "company_domains" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" uuid NOT NULL, "domain" character varying(253) NOT NULL, "verified_at" TIMESTAMP WITH TIME ZONE, "proof_email" character varying(320), "proof_token_hash" character varying(64), "proof_expires_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_company_domains" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_company_domains_company_domain" ON "company_domains" ("company_id", "domain") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_company_domains_proved" ON "company_domains" ("domain") WHERE "verified_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_company_domains_proof_token" ON "company_domains" ("proof_token_hash") WHERE "proof_token_hash" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "company_domains" ADD CONSTRAINT "FK_company_domains_company" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "company_domains" DROP CONSTRAINT "FK_company_domains_company"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_company_domains_proof_token"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_company_domains_proved"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_company_domains_company_domain"`);
    await queryRunner.query(`DROP TABLE "company_domains"`);
    await queryRunner.query(`ALTER TABLE "company_sso" DROP CONSTRAINT "FK_company_sso_company"`);
    await queryRunner.query(`DROP TABLE "company_sso"`);
  }
}
