import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Per agent: files in the webhook body as base64 (for agents that cannot fetch a link). */
export class AgentFilesInline1763950000001 implements MigrationInterface {
  name = 'AgentFilesInline1763950000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" ADD "send_files_inline" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "send_files_inline"`);
  }
}
