import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Long-running agents (issue 14): an agent may answer 202 Accepted and deliver its reply later to
 * /api/agent-callbacks/:messageId with a per-message token. The tokens' SHA-256 hashes, their expiry (the
 * agent's deadline) and whether the webhook accepted the message; and each agent's deadline in minutes.
 */
export class AgentCallbacks1763910000000 implements MigrationInterface {
  name = 'AgentCallbacks1763910000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agent_callback_tokens" ("token_hash" bytea NOT NULL, "message_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0b9843378a0d5751501d270ba7a" PRIMARY KEY ("token_hash"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_callback_tokens_expires" ON "agent_callback_tokens"  ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_callback_tokens_message" ON "agent_callback_tokens"  ("message_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "agents" ADD "callback_deadline_minutes" smallint NOT NULL DEFAULT '10'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "callback_deadline_minutes"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_callback_tokens_message"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_callback_tokens_expires"`);
    await queryRunner.query(`DROP TABLE "agent_callback_tokens"`);
  }
}
