import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Kept in step with StoredFileEntity.nameVector (TypeORM compares it through typeorm_metadata). */
export const FILE_NAME_SEARCH_EXPRESSION = `to_tsvector('simple'::regconfig, regexp_replace(COALESCE(name, ''), '[^[:alnum:]]+', ' ', 'g'))`;

/**
 * Search finds messages by their files' names: a stored generated tsvector of the name and a GIN index
 * on it, like messages.search_vector. Every run of punctuation in the name is a space first (the parser
 * would keep "q3_report-final.pdf" as one word; this way "report" finds it); the search query is made
 * the same way. Outside a transaction so that the index is built CONCURRENTLY.
 */
export class FileNameSearch1763990000001 implements MigrationInterface {
  name = 'FileNameSearch1763990000001';
  transaction = false;

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "files" ADD COLUMN IF NOT EXISTS "name_vector" tsvector
       GENERATED ALWAYS AS (${FILE_NAME_SEARCH_EXPRESSION}) STORED`,
    );
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS "typeorm_metadata" ("type" varchar NOT NULL, "database" varchar,
       "schema" varchar, "table" varchar, "name" varchar, "value" text)`,
    );
    await queryRunner.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'files'
       AND "name" = 'name_vector'`,
    );
    await queryRunner.query(
      `INSERT INTO "typeorm_metadata" ("database", "schema", "table", "type", "name", "value")
       VALUES (current_database(), current_schema(), 'files', 'GENERATED_COLUMN', 'name_vector', $1)`,
      [FILE_NAME_SEARCH_EXPRESSION],
    );
    await queryRunner.query(
      `DO $$ BEGIN
         IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                    WHERE c.relname = 'IDX_files_name_search' AND NOT i.indisvalid) THEN
           DROP INDEX "IDX_files_name_search";
         END IF;
       END $$`,
    );
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "IDX_files_name_search" ON "files" USING GIN ("name_vector")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "IDX_files_name_search"`);
    await queryRunner.query(`ALTER TABLE "files" DROP COLUMN IF EXISTS "name_vector"`);
    await queryRunner.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'files'
       AND "name" = 'name_vector'`,
    );
  }
}
