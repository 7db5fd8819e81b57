import { Injectable } from '@nestjs/common';
import { JobQueue } from '../queue/job-queue';

interface Letter {
  subject: string;
  /** Paragraphs of plain text. */
  lines: string[];
  action?: { label: string; link: string; note: string };
}

/** Mail leaves through the job queue so a slow SMTP server never holds up a request. */
@Injectable()
export class MailService {
  constructor(private readonly queue: JobQueue) {}

  sendPasswordReset(to: string, link: string): Promise<void> {
    return this.send(to, {
      subject: 'Reset your Switchboard password',
      lines: [
        'Someone asked to reset the password of your Switchboard account.',
        'If it was not you, ignore this email: your password stays as it is.',
      ],
      action: { label: 'Choose a new password', link, note: 'The link works for one hour, once.' },
    });
  }

  sendEmailVerification(to: string, link: string): Promise<void> {
    return this.send(to, {
      subject: 'Confirm your email address for Switchboard',
      lines: [
        'Welcome to Switchboard. Please confirm that this email address is yours.',
        'If you did not create a Switchboard account, ignore this email.',
      ],
      action: { label: 'Confirm my email address', link, note: 'The link works for 48 hours, once.' },
    });
  }

  /**
   * An account joined a company through an invitation link that a manager passed on, not the mailed
   * one: the address is proved by choosing the account's password here, which ends its other sessions.
   */
  sendAddressConfirmationWithPassword(to: string, link: string): Promise<void> {
    return this.send(to, {
      subject: 'Confirm your email address for Switchboard',
      lines: [
        'A Switchboard account was created for this email address through an invitation link.',
        'To confirm that the address is yours, choose the password of the account: any other password stops working, and every device signed in to it is signed out.',
        'If you did not create this account, choosing a password makes it yours; or ignore this email.',
      ],
      action: {
        label: 'Confirm and choose my password',
        link,
        note: 'The link works for 48 hours, once.',
      },
    });
  }

  /** Someone registered with an address that already has an account: tell its owner, not the caller. */
  sendRegistrationAttempt(to: string, signInLink: string, resetLink: string): Promise<void> {
    return this.send(to, {
      subject: 'Someone tried to sign up with your email address',
      lines: [
        'Someone tried to create a Switchboard account with this email address, which already has one.',
        `If it was you, sign in at ${signInLink} or reset your password at ${resetLink}.`,
        'If it was not you, you can ignore this email: nothing was changed.',
      ],
    });
  }

  sendEmailChange(to: string, link: string): Promise<void> {
    return this.send(to, {
      subject: 'Confirm your new email address for Switchboard',
      lines: [
        'You asked to use this address for your Switchboard account.',
        'Your email changes only when you follow the link. If it was not you, ignore this email.',
      ],
      action: { label: 'Use this email address', link, note: 'The link works for 24 hours, once.' },
    });
  }

  /** An email change was asked for an address that already has an account. */
  sendEmailChangeRefused(to: string): Promise<void> {
    return this.send(to, {
      subject: 'Your email address was not added to another Switchboard account',
      lines: [
        'Someone asked to move another Switchboard account to this email address.',
        'This address already has an account, so nothing was changed.',
      ],
    });
  }

  sendEmailChanged(to: string, newEmail: string, resetLink: string): Promise<void> {
    return this.send(to, {
      subject: 'Your Switchboard email address was changed',
      lines: [
        `The email address of your Switchboard account was changed to ${newEmail}.`,
        `If you did not do this, reset your password at ${resetLink} and contact your administrator.`,
      ],
    });
  }

  /** A platform administrator made an account for this address: the link sets its first password. */
  sendAccountInvitation(to: string, invite: { name: string; link: string; days: number }): Promise<void> {
    return this.send(to, {
      subject: 'You have been invited to Switchboard',
      lines: [
        `Hello ${invite.name}, an administrator created a Switchboard account for this email address.`,
        'Follow the link to choose your password, then sign in with this address.',
        'If you did not expect this invitation, you can ignore this email.',
      ],
      action: {
        label: 'Choose your password',
        link: invite.link,
        note: `The link works for ${invite.days} days, once.`,
      },
    });
  }

  /** Proves that the company may claim an email domain for single sign-on: the link reaches its owner. */
  sendDomainProof(
    to: string,
    proof: { domain: string; companyName: string; link: string; hours: number },
  ): Promise<void> {
    return this.send(to, {
      subject: `Confirm ${proof.domain} for single sign-on in Switchboard`,
      lines: [
        `The owner of the company "${proof.companyName}" on Switchboard asked to use ${proof.domain} for single sign-on: people with an address at ${proof.domain} would sign in through the company's identity provider.`,
        'If you administer this domain and agree, follow the link. If not, ignore this email: nothing changes.',
      ],
      action: {
        label: `Confirm ${proof.domain}`,
        link: proof.link,
        note: `The link works for ${proof.hours} hours, once.`,
      },
    });
  }

  /** An invitation to join a company; the link also lets someone without an account sign up. */
  sendInvitation(
    to: string,
    invite: { companyName: string; inviterName: string | null; role: string; link: string; expiresAt: Date },
  ): Promise<void> {
    const who = invite.inviterName ? `${invite.inviterName} invited you` : 'You have been invited';
    return this.send(to, {
      subject: `You are invited to join ${invite.companyName} on Switchboard`,
      lines: [
        `${who} to join ${invite.companyName} on Switchboard as ${invite.role === 'admin' ? 'an admin' : 'a user'}.`,
        'Follow the link to accept. If you have no Switchboard account yet, you can create one there.',
        'If you did not expect this invitation, you can ignore this email.',
      ],
      action: {
        label: 'Accept the invitation',
        link: invite.link,
        note: `The link works until ${invite.expiresAt.toUTCString()}, once.`,
      },
    });
  }

  private async send(to: string, letter: Letter): Promise<void> {
    const { action } = letter;
    const text = [
      ...letter.lines.flatMap((line) => [line, '']),
      ...(action ? [`${action.label}: ${action.link}`, action.note] : []),
    ].join('\n');
    const html =
      letter.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
      (action
        ? `<p><a href="${escapeHtml(action.link)}">${escapeHtml(action.label)}</a> (${escapeHtml(action.note)})</p>`
        : '');
    await this.queue.enqueue('mail.send', { to, subject: letter.subject, text, html });
  }
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
