import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in through a company's identity provider: an account is linked to the provider's `iss` + `sub`
 * (never found by email alone), and a session remembers the company whose provider made it, so that
 * turning that company's single sign-on off ends it and "members must use SSO" can tell it apart.
 */
export class SsoSignIn1763970000001 implements MigrationInterface {
  name = 'SsoSignIn1763970000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "external_identities" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "company_id" uuid NOT NULL, "issuer" character varying(2000) NOT NULL, "subject" character varying(255) NOT NULL, "email" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_external_identities" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_external_identities_issuer_subject" ON "external_identities" ("issuer", "subject") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_external_identities_user_issuer" ON "external_identities" ("user_id", "issuer") `,
    );
    await queryRunner.query(
      `ALTER TABLE "external_identities" ADD CONSTRAINT "FK_external_identities_user" FOREIGN KEY ("user_id") REFERENCES "profiles"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "external_identities" ADD CONSTRAINT "FK_external_identities_company" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "sessions" ADD "sso_company_id" uuid`);
    await queryRunner.query(
      `CREATE INDEX "IDX_sessions_sso_company" ON "sessions" ("sso_company_id") WHERE "sso_company_id" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_sessions_sso_company"`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "sso_company_id"`);
    await queryRunner.query(
      `ALTER TABLE "external_identities" DROP CONSTRAINT "FK_external_identities_company"`,
    );
    await queryRunner.query(
      `ALTER TABLE "external_identities" DROP CONSTRAINT "FK_external_identities_user"`,
    );
    await queryRunner.query(`DROP INDEX "public"."UQ_external_identities_user_issuer"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_external_identities_issuer_subject"`);
    await queryRunner.query(`DROP TABLE "external_identities"`);
  }
}
