import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Kept in step with MessageEntity.searchVector (TypeORM compares it through typeorm_metadata). */
export const MESSAGE_SEARCH_EXPRESSION = `to_tsvector('simple'::regconfig, left(content, 100000))`;

/**
 * Full-text search on messages: a stored generated tsvector and a GIN index on it.
 *
 * 'simple' config: lower-cases and splits words, no stemming and no stop words, so it treats every
 * language alike (chats are in any language; an English stemmer would mangle the others and drop
 * words like "the" or "it" that a user may well search for). Only the first 100,000 characters are
 * indexed: a tsvector is capped at 1 MB, and an agent reply may be that long; a reply must never fail
 * to be stored because of its index.
 *
 * Outside a transaction, so that the index is built CONCURRENTLY: adding the column rewrites the
 * table once (one statement), but building the index then does not block sends and replies. Each
 * step can be run again after a failure (an interrupted concurrent build leaves an invalid index,
 * dropped first).
 */
export class MessageSearch1763920000000 implements MigrationInterface {
  name = 'MessageSearch1763920000000';
  transaction = false;

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "search_vector" tsvector
       GENERATED ALWAYS AS (${MESSAGE_SEARCH_EXPRESSION}) STORED`,
    );
    // TypeORM reads a generated column's expression from its service table (its migration runner makes
    // the table whenever an entity has a generated column, like its `migrations` table).
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS "typeorm_metadata" ("type" varchar NOT NULL, "database" varchar,
       "schema" varchar, "table" varchar, "name" varchar, "value" text)`,
    );
    await queryRunner.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'messages'
       AND "name" = 'search_vector'`,
    );
    await queryRunner.query(
      `INSERT INTO "typeorm_metadata" ("database", "schema", "table", "type", "name", "value")
       VALUES (current_database(), current_schema(), 'messages', 'GENERATED_COLUMN', 'search_vector', $1)`,
      [MESSAGE_SEARCH_EXPRESSION],
    );
    await queryRunner.query(
      `DO $$ BEGIN
         IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                    WHERE c.relname = 'IDX_messages_search' AND NOT i.indisvalid) THEN
           DROP INDEX "IDX_messages_search";
         END IF;
       END $$`,
    );
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "IDX_messages_search" ON "messages" USING GIN ("search_vector")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "IDX_messages_search"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN IF EXISTS "search_vector"`);
    await queryRunner.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'messages'
       AND "name" = 'search_vector'`,
    );
  }
}
