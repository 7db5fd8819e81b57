import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Company invitations: the emailed token is kept only as a hash (lookup) and sealed (re-copy). */
export class Invitations1763800000000 implements MigrationInterface {
  name = 'Invitations1763800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "company_invitations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" uuid NOT NULL, "email" character varying(320) NOT NULL, "role" character varying(16) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "token_hash" character varying(64) NOT NULL, "token_sealed" character varying(200), "invited_by" uuid, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f73da096e85d9dcfaee9fb4ea5e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_company_invitations_token" ON "company_invitations"  ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_company_invitations_pending" ON "company_invitations"  ("company_id", "email") WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_company_invitations_company" ON "company_invitations"  ("company_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "company_invitations" ADD CONSTRAINT "FK_299a0145ecb210cee972d1cc3c8" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "company_invitations" ADD CONSTRAINT "FK_ae5d05a58591a6715bfa5768f87" FOREIGN KEY ("invited_by") REFERENCES "profiles"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "company_invitations" DROP CONSTRAINT "FK_ae5d05a58591a6715bfa5768f87"`,
    );
    await queryRunner.query(
      `ALTER TABLE "company_invitations" DROP CONSTRAINT "FK_299a0145ecb210cee972d1cc3c8"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_company_invitations_company"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_company_invitations_pending"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_company_invitations_token"`);
    await queryRunner.query(`DROP TABLE "company_invitations"`);
  }
}
