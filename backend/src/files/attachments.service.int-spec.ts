import { PassThrough, Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { pdfBytes } from '../../test/attachments.test-util';
import { useServiceContext } from '../../test/service-context';
import { ChatsService } from '../chats/chats.service';
import { AttachmentsService, UPLOAD_TARGET_GONE } from './attachments.service';
import { AttachmentsRepository } from './files.repository';
import { UnattachedFilesSweeper } from './jobs/unattached-files.sweeper';
import { StoredFileEntity } from './stored-file.entity';

describe('unattached uploads (AttachmentsService on real PostgreSQL)', () => {
  const ctx = useServiceContext();

  it('are deleted, bytes too, once a day has passed without a message taking them; sent ones stay', async () => {
    expect(ctx.jobs.schedules).toContainEqual({ name: 'files.sweep-unattached', everyMs: 60 * 60 * 1000 });
    // Bytes in PostgreSQL: no multipart uploads to sweep, so no such job.
    const jobs = [...ctx.jobs.schedules, ...ctx.jobs.held].map((job) => job.name);
    expect(jobs).not.toContain('files.abort-abandoned-uploads');
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me);
    const attachments = ctx.get(AttachmentsService);
    const upload = (name: string) => attachments.upload(me, chat.id, name, Readable.from([pdfBytes(10_000)]));
    const stale = await upload('stale.pdf');
    const fresh = await upload('fresh.pdf');
    const sent = await upload('sent.pdf');
    await ctx.get(ChatsService).send(me, chat.id, 'with a file', [sent.id]);
    const files = ctx.app.get(DataSource).getRepository(StoredFileEntity);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await files.update([stale.id, sent.id], { createdAt: twoDaysAgo });

    await ctx.get(UnattachedFilesSweeper).sweepUnattachedFiles();

    expect(await files.existsBy({ id: stale.id })).toBe(false);
    expect(await ctx.get(AttachmentsRepository).chunkSizes(stale.id)).toEqual([]);
    expect(await files.existsBy({ id: fresh.id })).toBe(true);
    expect(await files.existsBy({ id: sent.id })).toBe(true);
  });

  it('answers 404 (not a 500) to an upload whose chat is deleted while it streams', async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me);
    const db = ctx.app.get(DataSource);
    const body = new PassThrough();
    const pdf = pdfBytes(600_000);
    const uploading = ctx.get(AttachmentsService).upload(me, chat.id, 'late.pdf', body);
    body.write(pdf.subarray(0, 300_000)); // past the first 256 KB row
    const storedRows = async () =>
      Number(
        (
          await db.query<Array<{ n: string }>>(
            'SELECT count(*) AS n FROM file_chunks c JOIN files f ON f.id = c.file_id WHERE f.chat_id = $1',
            [chat.id],
          )
        )[0].n,
      );
    for (let waited = 0; (await storedRows()) === 0 && waited < 5000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await storedRows()).toBe(1);

    await ctx.get(ChatsService).remove(me, chat.id);
    body.end(pdf.subarray(300_000));
    await expect(uploading).rejects.toMatchObject({ code: 'NOT_FOUND', message: UPLOAD_TARGET_GONE });
  });
});
