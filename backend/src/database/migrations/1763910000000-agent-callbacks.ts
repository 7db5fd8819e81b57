import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Long-running agents: an agent may answer 202 Accepted and deliver its reply later to
 * /api/agent-callbacks/:messageId with a per-message token. Tokens are derived (HMAC), not stored: a
 * row is written only for a message whose webhook answered 202, with its deadline; and each agent's
 * deadline in minutes.
 */
export class AgentCallbacks1763910000000 implements MigrationInterface {
  name = 'AgentCallbacks1763910000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agent_callback_waits" ("message_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "deadline_minutes" smallint NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ae55472a44847819eb1f953eb6c" PRIMARY KEY ("message_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_callback_waits_expires" ON "agent_callback_waits"  ("expires_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "agents" ADD "callback_deadline_minutes" smallint NOT NULL DEFAULT '10'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "callback_deadline_minutes"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_callback_waits_expires"`);
    await queryRunner.query(`DROP TABLE "agent_callback_waits"`);
  }
}
