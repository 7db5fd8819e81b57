import { Module } from '@nestjs/common';
import { CompaniesModule } from '../../companies/companies.module';
import { FilesModule } from '../../files/files.module';
import { ChatExportController } from './chat-export.controller';
import { ChatExportRepository } from './chat-export.repository';
import { ChatExportService } from './chat-export.service';

@Module({
  imports: [CompaniesModule, FilesModule],
  controllers: [ChatExportController],
  providers: [ChatExportService, ChatExportRepository],
})
export class ChatExportModule {}
