import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JobHandler } from '../../queue/job-handler.decorator';
import type { MailSendJob } from '../../queue/job-types';

/** Delivers mail through SMTP_URL, or writes it to DATA_DIR/mail and logs its links when unset. */
@Injectable()
export class MailSendJobHandler {
  private readonly logger = new Logger('Mail');
  private transporter: Transporter | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @JobHandler('mail.send')
  async sendMail(mail: MailSendJob): Promise<void> {
    if (this.config.smtpUrl) {
      this.transporter ??= createTransport(this.config.smtpUrl);
      await this.transporter.sendMail({ from: this.config.mailFrom, ...mail });
      return;
    }
    const dir = join(this.config.dataDir, 'mail');
    await mkdir(dir, { recursive: true });
    const file = join(
      dir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to.replace(/[^\w.@-]/g, '_')}.txt`,
    );
    await writeFile(file, `To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`);
    const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
    this.logger.log(
      `Mail to ${mail.to} ("${mail.subject}") written to ${file}${links.length ? `; link: ${links.join(' ')}` : ''}`,
    );
  }
}
