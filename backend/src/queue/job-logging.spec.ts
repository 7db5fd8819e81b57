import { Logger } from '@nestjs/common';
import { createLogger, useJsonLogs } from '../logging/logger';
import { inJobLogContext } from './job-logging';
import { PermanentJobError } from './job-types';

/** A root logger at debug whose lines are kept as text. */
function capturingRoot() {
  const lines: string[] = [];
  const root = createLogger('debug', {
    write: (line: string) => {
      lines.push(line);
    },
  });
  useJsonLogs(root);
  return { root, lines };
}

const withoutTime = (line: string) => line.replace(/"time":"[^"]*",/, '');
const meta = { attempt: 1, maxAttempts: 3, jobId: 'agent.reply-m1', requestId: 'req-7' };

describe('job log context', () => {
  it('binds the job to its lines, redacted, and writes the completion line a child logger would', async () => {
    const { root, lines } = capturingRoot();
    const handler = inJobLogContext(
      'agent.reply',
      () => {
        new Logger('AgentReply').warn({ headers: { authorization: 'sec-1' }, user: { password: 'sec-2' } });
        return Promise.resolve();
      },
      root,
    );
    await handler({}, meta);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'warn',
      job: 'agent.reply',
      jobId: 'agent.reply-m1',
      requestId: 'req-7',
      context: 'AgentReply',
      headers: { authorization: '[redacted]' },
      user: { password: '[redacted]' },
    });
    expect(lines.join('')).not.toContain('sec-');

    // The line the job's child logger wrote through Nest's Logger before: byte for byte, but the time.
    const completed = JSON.parse(lines[1]) as { msg: string };
    expect(completed.msg).toMatch(/^Job agent\.reply completed in \d+ ms$/);
    const expected: string[] = [];
    createLogger('debug', { write: (line: string) => void expected.push(line) })
      .child({ job: 'agent.reply', jobId: 'agent.reply-m1', requestId: 'req-7' })
      .info({ context: 'Jobs' }, completed.msg);
    expect(withoutTime(lines[1])).toBe(withoutTime(expected[0]));
  });

  it('logs the success of a job no request queued at debug, and a failure in the job’s context', async () => {
    const { root, lines } = capturingRoot();
    const quiet = { attempt: 1, maxAttempts: 1 };
    await inJobLogContext('sweep', () => Promise.resolve(), root)({}, quiet);
    await expect(
      inJobLogContext('sweep', () => Promise.reject(new PermanentJobError('gone')), root)({}, quiet),
    ).rejects.toThrow('gone');
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 'debug', job: 'sweep', context: 'Jobs', msg: expect.any(String) }),
      expect.objectContaining({
        level: 'warn',
        job: 'sweep',
        context: 'Jobs',
        msg: 'Job sweep failed, not retried: gone',
      }),
    ]);
  });
});
