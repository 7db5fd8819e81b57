import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Platform administration: the installation's branding and colours (one row), the audit log, and
 * accounts a superadmin disabled.
 */
export class PlatformAdmin1763810000000 implements MigrationInterface {
  name = 'PlatformAdmin1763810000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_log" ("id" BIGSERIAL NOT NULL, "action" character varying(64) NOT NULL, "actor_id" uuid, "actor_label" character varying(320), "target_type" character varying(32), "target_id" character varying(64), "target_label" character varying(320), "company_id" uuid, "company_name" character varying(200), "ip" character varying(64), "details" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_07fefa57f7f5ab8fc3f52b3ed0b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_company" ON "audit_log"  ("company_id", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_actor" ON "audit_log"  ("actor_id", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_action" ON "audit_log"  ("action", "id") `);
    await queryRunner.query(
      `CREATE TABLE "admin_settings" ("id" smallint NOT NULL, "logo_url" character varying(2048), "favicon_url" character varying(2048), "accent_color" character varying(7) NOT NULL DEFAULT '#9b87f5', "color_settings" jsonb, "updated_by" uuid, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_admin_settings_single_row" CHECK ("id" = 1), CONSTRAINT "PK_8eeabc518a2e33306f19fa557cc" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`ALTER TABLE "profiles" ADD "disabled_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "profiles" DROP COLUMN "disabled_at"`);
    await queryRunner.query(`DROP TABLE "admin_settings"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_action"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_actor"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_company"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
  }
}
