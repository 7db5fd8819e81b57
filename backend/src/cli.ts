import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './config/app-config';
import { dataSourceOptions } from './database/data-source-options';
import { runningEmbeddedUrl, startEmbeddedPostgres } from './database/embedded-postgres';
import { Database } from './database/database';
import { runMigrations } from './database/migrate';
import { normalizeEmail } from './profiles/users.service';
import { ProfilesRepository } from './profiles/profiles.repository';

const USAGE = [
  'Usage: npm run cli -- promote EMAIL   (makes the account a platform superadmin)',
  '       npm run cli -- migrate         (applies pending migrations; deployments run it before starting processes)',
].join('\n');

/** Makes an account a platform superadmin; false when no account has that email. */
export async function promoteToSuperadmin(url: string, email: string): Promise<boolean> {
  await runMigrations(url);
  const dataSource = new DataSource(dataSourceOptions(url));
  await dataSource.initialize();
  try {
    return await new ProfilesRepository(new Database(dataSource)).promote(normalizeEmail(email));
  } finally {
    await dataSource.destroy();
  }
}

/** Operator commands; they talk to the same database the api uses (the running embedded one, if any). */
async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const valid = (command === 'promote' && args.length === 1) || (command === 'migrate' && args.length === 0);
  if (!valid) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  let url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir);
  let stop: (() => Promise<void>) | null = null;
  if (!url) {
    const embedded = await startEmbeddedPostgres(config.dataDir);
    url = embedded.url;
    stop = embedded.stop;
  }
  try {
    if (command === 'migrate') {
      await runMigrations(url);
      console.log('The database is up to date.');
      return 0;
    }
    const email = normalizeEmail(args[0]);
    if (!(await promoteToSuperadmin(url, email))) {
      console.error(`No account with the email ${email}.`);
      return 1;
    }
    console.log(`${email} is now a superadmin.`);
    return 0;
  } finally {
    if (stop) await stop();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
