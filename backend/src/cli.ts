import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './config/app-config';
import { dataSourceOptions } from './database/data-source-options';
import { runningEmbeddedUrl, startEmbeddedPostgres } from './database/embedded-postgres';
import { runMigrations } from './database/migrate';
import { normalizeEmail } from './profiles/users.service';
import { UserEntity } from './profiles/user.entity';

const USAGE = 'Usage: npm run cli -- promote EMAIL   (makes the account a platform superadmin)';

/** Operator commands; they talk to the same database the api uses (the running embedded one, if any). */
async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== 'promote' || args.length !== 1) {
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
    await runMigrations(url);
    const dataSource = new DataSource(dataSourceOptions(url));
    await dataSource.initialize();
    try {
      const email = normalizeEmail(args[0]);
      const result = await dataSource.getRepository(UserEntity).update({ email }, { isSuperadmin: true });
      if (!result.affected) {
        console.error(`No account with the email ${email}.`);
        return 1;
      }
      console.log(`${email} is now a superadmin.`);
      return 0;
    } finally {
      await dataSource.destroy();
    }
  } finally {
    if (stop) await stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
