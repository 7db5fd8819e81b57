import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sha256 } from '../auth/sessions.service';
import { SealedBox } from '../common/purpose-key';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

export const INVITATION_TTL_DAYS = 30;

/**
 * The spec's expiry: 30 days from now, at the end of that day (23:59:59.999) in the server's local time
 * zone (TZ of the api process; UTC in the Docker image unless TZ is set).
 */
export function invitationExpiry(now: Date = new Date()): Date {
  const end = new Date(now.getTime());
  end.setDate(end.getDate() + INVITATION_TTL_DAYS);
  end.setHours(23, 59, 59, 999);
  return end;
}

export interface IssuedToken {
  /** The link's token, shown to managers (create's answer, Copy Invite Link). */
  token: string;
  hash: string;
  sealed: string;
  /** The token only the invitation's mail carries: following it proves the mailbox. Never sealed. */
  mailToken: string;
  mailHash: string;
}

/**
 * Invitation tokens: 256 random bits, looked up by SHA-256. Unlike account tokens, a manager may copy a
 * pending invitation's link again, so the token is also kept sealed with AES-256-GCM under a key derived
 * (HKDF-SHA256) from JWT_SECRET: a database leak alone yields no usable link, and rotating JWT_SECRET
 * only means pending links must be resent to be copied again (they still work when followed).
 */
@Injectable()
export class InvitationTokens {
  private readonly box: SealedBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SealedBox(config.jwtSecret, 'invitation-link-token-v1');
  }

  issue(): IssuedToken {
    const token = randomBytes(32).toString('base64url');
    const mailToken = randomBytes(32).toString('base64url');
    return {
      token,
      hash: hashInvitationToken(token),
      sealed: this.seal(token),
      mailToken,
      mailHash: hashInvitationToken(mailToken),
    };
  }

  /** The token back from its sealed copy; null when it cannot be opened (another key, tampered). */
  open(sealed: string): string | null {
    return this.box.open(sealed);
  }

  private seal(token: string): string {
    return this.box.seal(token);
  }
}

export function hashInvitationToken(token: string): string {
  return sha256(token);
}
