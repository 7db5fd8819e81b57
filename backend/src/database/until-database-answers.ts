import { Logger } from '@nestjs/common';
import { untilAnswers } from '../common/until-answers';

const logger = new Logger('Database');

/** Errors that mean "PostgreSQL is not reachable right now", not "this statement is wrong". */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: string; message?: string; driverError?: { code?: string; message?: string } };
  const code = e?.driverError?.code ?? e?.code ?? '';
  const message = `${e?.message ?? ''} ${e?.driverError?.message ?? ''}`;
  // 57P01-57P03: the server is shutting down or starting; 08xxx: connection exceptions.
  if (/^(57P0[123]|08\d{3})$/.test(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|the database system is (starting|shutting) up/i.test(
    message,
  );
}

/**
 * Runs `work`, and while PostgreSQL is unreachable runs it again (0.25 s, 0.5 s, ... at most 5 s apart)
 * until it answers or `giveUpAfterMs` has passed. For work that must not be lost to a database restart
 * and must not be redone from scratch (storing an agent's answer that has already come).
 */
export async function untilDatabaseAnswers<T>(
  what: string,
  work: () => Promise<T>,
  options: { giveUpAfterMs?: number; stopping?: () => boolean } = {},
): Promise<T> {
  const { giveUpAfterMs = 10 * 60_000, stopping } = options;
  return untilAnswers(work, {
    isOutage: isConnectionError,
    giveUpAfterMs,
    maxDelayMs: 5000,
    stopping,
    onOutage: () => logger.warn(`${what}: the database is not answering; trying again until it does`),
  });
}
