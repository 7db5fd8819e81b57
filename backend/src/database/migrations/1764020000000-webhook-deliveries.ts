import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery log (deliveries/): one row per webhook delivery of a reply job, with its bodies kept for
 * the company's retention (companies.delivery_retention_days, 7 days by default, 0: not kept).
 */
export class WebhookDeliveries1764020000000 implements MigrationInterface {
  name = 'WebhookDeliveries1764020000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" uuid NOT NULL, "agent_id" uuid NOT NULL, "chat_id" uuid NOT NULL, "message_id" uuid NOT NULL, "reply_id" uuid, "round" integer NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "duration_ms" integer NOT NULL, "attempts" smallint NOT NULL, "outcome" character varying(20) NOT NULL, "http_status" smallint, "request_id" character varying(100) NOT NULL, "error" character varying(500), "replay_of" uuid, "replayed_at" TIMESTAMP WITH TIME ZONE, "replayed_by" uuid, "request_headers" jsonb, "request_body" text, "response_body" text, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_started" ON "webhook_deliveries" ("started_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_agent" ON "webhook_deliveries" ("company_id", "agent_id", "started_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_company" ON "webhook_deliveries" ("company_id", "started_at", "id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_webhook_deliveries_round" ON "webhook_deliveries" ("message_id", "round")`,
    );
    await queryRunner.query(
      `ALTER TABLE "companies" ADD "delivery_retention_days" smallint NOT NULL DEFAULT '7'`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_9e30e96212a8f049cfc47c4cc95" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "companies" DROP COLUMN "delivery_retention_days"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
  }
}
