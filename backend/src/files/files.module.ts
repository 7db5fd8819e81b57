import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CompanyQuotasModule } from '../quotas/company-quotas.module';
import { ATTACHMENT_STORE, type AttachmentStore } from './attachment-store';
import { AttachmentsController } from './attachments.controller';
import { AttachmentsService } from './attachments.service';
import { FilesController } from './files.controller';
import { AttachmentsRepository, FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { AbandonedUploadsSweeper } from './jobs/abandoned-uploads.sweeper';
import { UnattachedFilesSweeper } from './jobs/unattached-files.sweeper';
import { PgAttachmentStore } from './pg-attachment-store';
import { parseS3Url, S3AttachmentStore } from './s3-attachment-store';

/** S3_URL set: the bucket; unset: PostgreSQL, as the rest of the data. */
async function openAttachmentStore(config: AppConfig, rows: AttachmentsRepository): Promise<AttachmentStore> {
  const s3Url = config.attachments.s3Url;
  return s3Url ? S3AttachmentStore.open(parseS3Url(s3Url)) : new PgAttachmentStore(rows);
}

@Module({
  imports: [CompanyQuotasModule],
  controllers: [FilesController, AttachmentsController],
  providers: [
    FilesService,
    FilesRepository,
    AttachmentsRepository,
    AttachmentsService,
    UnattachedFilesSweeper,
    AbandonedUploadsSweeper,
    {
      provide: ATTACHMENT_STORE,
      useFactory: openAttachmentStore,
      inject: [APP_CONFIG, AttachmentsRepository],
    },
  ],
  exports: [FilesService, AttachmentsService],
})
export class FilesModule {}
