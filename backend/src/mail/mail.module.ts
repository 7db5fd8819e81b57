import { Module } from '@nestjs/common';
import { MailSendJobHandler } from './jobs/mail-send.job';
import { MailService } from './mail.service';

@Module({
  providers: [MailService, MailSendJobHandler],
  exports: [MailService],
})
export class MailModule {}
