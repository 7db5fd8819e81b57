import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { pdfBytes } from '../../test/attachments.test-util';
import { useServiceContext } from '../../test/service-context';
import { ChatsService } from '../chats/chats.service';
import { AttachmentsService } from './attachments.service';
import { AttachmentsRepository } from './files.repository';
import { UnattachedFilesSweeper } from './jobs/unattached-files.sweeper';
import { StoredFileEntity } from './stored-file.entity';

describe('unattached uploads (AttachmentsService on real PostgreSQL)', () => {
  const ctx = useServiceContext();

  it('are deleted, bytes too, once a day has passed without a message taking them; sent ones stay', async () => {
    expect(ctx.jobs.schedules).toContainEqual({ name: 'files.sweep-unattached', everyMs: 60 * 60 * 1000 });
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
});
