import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { Public } from '../common/public.decorator';
import { UuidParamPipe } from '../common/uuid';
import { ATTACHMENT_NOT_FOUND, AttachmentsService } from './attachments.service';

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

@ApiTags('files')
@Controller('attachments')
export class AttachmentsController {
  constructor(private readonly attachments: AttachmentsService) {}

  /**
   * A file by its signed link (no session: `<img>` tags and agents send none). Streamed from the store.
   * Only images we re-encoded are shown inline; everything else downloads, never sniffed, sandboxed.
   */
  @Public()
  @Get(':id')
  @ApiOkResponse({ description: "The file's bytes" })
  async read(
    @Param('id', new UuidParamPipe(ATTACHMENT_NOT_FOUND)) id: string,
    @Query('expires') expires: unknown,
    @Query('sig') sig: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const file = await this.attachments.open(id, expires, sig);
    res.set({
      'Content-Type': file.mimeType,
      'Content-Length': String(file.size),
      'Content-Disposition': contentDisposition(file.kind === 'image' ? 'inline' : 'attachment', file.name),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
      // The link expires; the file under it never changes.
      'Cache-Control': 'private, max-age=3600',
    });
    await pipeline(file.body, res);
  }
}
