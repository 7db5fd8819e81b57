// Prints the SQL that would bring a database migrated to the current head in line with the entities:
// the body of the next migration. Usage (from the repo root, PostgreSQL reachable):
//   node backend/scripts/schema-diff.cjs postgres://postgres@127.0.0.1:5432/scratch_db
// The database must exist and be disposable; it is migrated first.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const out = path.join(__dirname, '..', 'dist-schema');
execFileSync('npx', ['tsc', '-p', path.join(__dirname, '..', 'tsconfig.build.json'), '--outDir', out], {
  stdio: 'inherit',
});
require('reflect-metadata');
const { DataSource } = require('typeorm');
const { dataSourceOptions } = require(path.join(out, 'database', 'data-source-options'));

(async () => {
  const url = process.argv[2];
  if (!url) throw new Error('usage: schema-diff.cjs DATABASE_URL');
  const ds = new DataSource(dataSourceOptions(url));
  await ds.initialize();
  await ds.runMigrations();
  const log = await ds.driver.createSchemaBuilder().log();
  for (const q of log.upQueries) console.log(`await queryRunner.query(\`${q.query}\`);`);
  console.log('// --- down ---');
  for (const q of log.downQueries.reverse()) console.log(`await queryRunner.query(\`${q.query}\`);`);
  await ds.destroy();
})();
