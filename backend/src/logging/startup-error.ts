import { Logger } from '@nestjs/common';
import { ConfigError } from '../config/app-config';

/** A bad setting is one readable line on stderr; anything else is logged with its stack. */
export function exitOnStartupError(error: unknown): never {
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else
    new Logger('Switchboard').fatal(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
}
