import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Agents, chats and messages (live chat). */
export class AgentsChats1763780000000 implements MigrationInterface {
  name = 'AgentsChats1763780000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agents" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "company_id" uuid NOT NULL, "name" character varying(100) NOT NULL, "description" character varying(500) NOT NULL DEFAULT 'Custom agent', "avatar_file_id" uuid, "webhook" character varying(2000), "default_questions" jsonb NOT NULL DEFAULT '[]', "elevenlabs_agent_id" character varying(200), "signing_secret" character varying(200), "is_editable" boolean NOT NULL DEFAULT true, "is_default" boolean NOT NULL DEFAULT false, "is_active" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9c653f28ae19c5884d5baf6a1d9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_agents_default" ON "agents"  ("user_id", "company_id") WHERE is_default`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agents_user_company" ON "agents"  ("user_id", "company_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "chats" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "company_id" uuid NOT NULL, "agent_id" uuid NOT NULL, "title" character varying(200) NOT NULL, "is_archived" boolean NOT NULL DEFAULT false, "last_message" character varying(200), "last_message_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0117647b3c4a4e5ff198aeb6206" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_chats_agent" ON "chats"  ("agent_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_chats_owner_list" ON "chats"  ("user_id", "company_id", "is_archived", "updated_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "messages" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "chat_id" uuid NOT NULL, "sender_id" uuid NOT NULL, "sender_type" character varying(8) NOT NULL, "content" text NOT NULL, "is_voice_message" boolean NOT NULL DEFAULT false, "reply_to" uuid, "reply_status" character varying(8), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_18325f38ae6de43878487eff986" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_messages_reply_to" ON "messages"  ("reply_to") WHERE reply_to IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_messages_pending" ON "messages"  ("chat_id") WHERE reply_status = 'pending'`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_messages_chat_seq" ON "messages"  ("chat_id", "seq") `);
    await queryRunner.query(
      `ALTER TABLE "agents" ADD CONSTRAINT "FK_57ee94c84a8e570e362af59dcea" FOREIGN KEY ("user_id") REFERENCES "profiles"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agents" ADD CONSTRAINT "FK_4e7bc8866f91a084697957af011" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "chats" ADD CONSTRAINT "FK_b6c92d818d42e3e298e84d94414" FOREIGN KEY ("user_id") REFERENCES "profiles"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "chats" ADD CONSTRAINT "FK_ff667981f516c8d05396f4d3e2d" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "chats" ADD CONSTRAINT "FK_657cfb73c6daecaa183a84fc64b" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "messages" ADD CONSTRAINT "FK_7540635fef1922f0b156b9ef74f" FOREIGN KEY ("chat_id") REFERENCES "chats"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" DROP CONSTRAINT "FK_7540635fef1922f0b156b9ef74f"`);
    await queryRunner.query(`ALTER TABLE "chats" DROP CONSTRAINT "FK_657cfb73c6daecaa183a84fc64b"`);
    await queryRunner.query(`ALTER TABLE "chats" DROP CONSTRAINT "FK_ff667981f516c8d05396f4d3e2d"`);
    await queryRunner.query(`ALTER TABLE "chats" DROP CONSTRAINT "FK_b6c92d818d42e3e298e84d94414"`);
    await queryRunner.query(`ALTER TABLE "agents" DROP CONSTRAINT "FK_4e7bc8866f91a084697957af011"`);
    await queryRunner.query(`ALTER TABLE "agents" DROP CONSTRAINT "FK_57ee94c84a8e570e362af59dcea"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_messages_chat_seq"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_messages_pending"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_messages_reply_to"`);
    await queryRunner.query(`DROP TABLE "messages"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_chats_owner_list"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_chats_agent"`);
    await queryRunner.query(`DROP TABLE "chats"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_agents_user_company"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_agents_default"`);
    await queryRunner.query(`DROP TABLE "agents"`);
  }
}
