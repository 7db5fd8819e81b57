import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An invitation's link proves nothing about the invitee's mailbox when the inviter
 * can see it. Each invitation gets a second token that only its mail carries (stored as a SHA-256, never
 * sealed, never shown to a manager); an account whose password was chosen through the inviter's copy of
 * the link is marked `password_unproven` until the address's owner sets one through a mailed link.
 */
export class InvitationMailProof1763940000000 implements MigrationInterface {
  name = 'InvitationMailProof1763940000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "company_invitations" ADD "mail_token_hash" character varying(64)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_company_invitations_mail_token" ON "company_invitations" ("mail_token_hash") WHERE "mail_token_hash" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "profiles" ADD "password_unproven" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "profiles" DROP COLUMN "password_unproven"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_company_invitations_mail_token"`);
    await queryRunner.query(`ALTER TABLE "company_invitations" DROP COLUMN "mail_token_hash"`);
  }
}
