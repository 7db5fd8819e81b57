import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verified email addresses, email changes that wait for a link, and the retired refresh secrets of each
 * session (so a replayed old token can be told from a random guess).
 */
export class AccountSecurity1763790000000 implements MigrationInterface {
  name = 'AccountSecurity1763790000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "profiles" ADD "email_verified_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "profiles" ADD "pending_email" character varying(320)`);
    // Accounts made with Google had their address confirmed by Google.
    await queryRunner.query(
      `UPDATE "profiles" SET "email_verified_at" = "created_at" WHERE "google_sub" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "auth_tokens" ADD "email" character varying(320)`);
    await queryRunner.query(
      `ALTER TABLE "sessions" ADD "retired_hashes" character varying(64) array NOT NULL DEFAULT '{}'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "retired_hashes"`);
    await queryRunner.query(`ALTER TABLE "auth_tokens" DROP COLUMN "email"`);
    await queryRunner.query(`ALTER TABLE "profiles" DROP COLUMN "pending_email"`);
    await queryRunner.query(`ALTER TABLE "profiles" DROP COLUMN "email_verified_at"`);
  }
}
