import { Injectable } from '@nestjs/common';
import { JobQueue } from '../queue/job-queue';

/** Mail leaves through the job queue so a slow SMTP server never holds up a request. */
@Injectable()
export class MailService {
  constructor(private readonly queue: JobQueue) {}

  async sendPasswordReset(to: string, link: string): Promise<void> {
    const text = [
      'Someone asked to reset the password of your Switchboard account.',
      '',
      `To choose a new password, open this link within the next hour:`,
      link,
      '',
      'If it was not you, ignore this email: your password stays as it is.',
    ].join('\n');
    const html =
      '<p>Someone asked to reset the password of your Switchboard account.</p>' +
      `<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works for one hour, once).</p>` +
      '<p>If it was not you, ignore this email: your password stays as it is.</p>';
    await this.queue.enqueue('mail.send', { to, subject: 'Reset your Switchboard password', text, html });
  }
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
