import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/public.decorator';
import { UuidParamPipe } from '../common/uuid';
import { FILE_NOT_FOUND, FilesService } from './files.service';

@ApiTags('files')
@Controller('files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Public()
  @Get(':id')
  @ApiOkResponse({ description: 'The re-encoded image' })
  async read(
    @Param('id', new UuidParamPipe(FILE_NOT_FOUND)) id: string,
    @Res() res: Response,
  ): Promise<void> {
    const file = await this.files.read(id);
    res.set({
      'Content-Type': file.contentType,
      'Content-Length': String(file.data.length),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
      // Ids are never reused: a new upload gets a new id.
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
    res.end(file.data);
  }
}
