import { Controller, Get, Param, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { type CompanyScope, CurrentScope } from '../../common/company-scope';
import { UuidParamPipe } from '../../common/uuid';
import { OptionalNotNull } from '../../common/validation';
import { CompanyScoped } from '../../companies/company-member.guard';
import type { ChatExportFormat } from '../../contracts/search';
import { CHAT_NOT_FOUND } from '../chats.service';
import { ChatExportService } from './chat-export.service';

export class ChatExportQuery {
  @ApiPropertyOptional({ enum: ['md', 'json', 'zip'], default: 'md' })
  @OptionalNotNull()
  @IsIn(['md', 'json', 'zip'], { message: 'format must be md, json or zip' })
  format?: ChatExportFormat;
}

@CompanyScoped('chats')
@Controller()
export class ChatExportController {
  constructor(private readonly exports: ChatExportService) {}

  /**
   * One of the caller's chats as a download: Markdown (default) or JSON, files as signed links; or a
   * ZIP with both and the files themselves.
   */
  @Get('chats/:id/export')
  @ApiProduces('text/markdown', 'application/json', 'application/zip')
  @ApiOkResponse({ description: 'The conversation as a file (Content-Disposition: attachment)' })
  async export(
    @CurrentScope() scope: CompanyScope,
    @Param('id', new UuidParamPipe(CHAT_NOT_FOUND)) id: string,
    @Query() query: ChatExportQuery,
  ): Promise<StreamableFile> {
    const file = await this.exports.export(scope, id, query.format ?? 'md');
    return new StreamableFile(file.body, { type: file.contentType, disposition: file.disposition });
  }
}
