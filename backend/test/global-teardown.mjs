// Jest globalTeardown: drops the per-run database made by global-setup.mjs and stops embedded PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export default async function globalTeardown() {
  const state = globalThis.__SWITCHBOARD_TEST_DB__;
  if (!state) return;
  globalThis.__SWITCHBOARD_TEST_DB__ = undefined;

  if (process.env.KEEP_TEST_DB === '1') {
    process.stderr.write(`[test db] keeping database ${state.database} (KEEP_TEST_DB=1)\n`);
  } else {
    const client = new pg.Client({ connectionString: state.adminUrl });
    try {
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(state.database)} WITH (FORCE)`);
    } catch (error) {
      process.stderr.write(`[test db] could not drop ${state.database}: ${error.message}\n`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  if (state.embedded) {
    await state.embedded.server.stop();
    if (state.embedded.ephemeral) {
      fs.rmSync(state.embedded.root, { recursive: true, force: true });
    } else {
      fs.rmSync(path.join(state.embedded.root, 'owner.pid'), { force: true });
    }
  }
}
