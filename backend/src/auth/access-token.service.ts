import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

export const ACCESS_TOKEN_TTL_S = 15 * 60;
const AUDIENCE = 'switchboard-api';
const ISSUER = 'switchboard';

export interface AccessClaims {
  sub: string;
  sid: string;
}

/** Short-lived access tokens: HS256 only, audience, issuer and expiry always checked. */
@Injectable()
export class AccessTokenService {
  private readonly jwt: JwtService;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.jwt = new JwtService({ secret: config.jwtSecret });
  }

  sign(userId: string, sessionId: string): string {
    return this.jwt.sign(
      { sid: sessionId },
      {
        subject: userId,
        algorithm: 'HS256',
        audience: AUDIENCE,
        issuer: ISSUER,
        expiresIn: ACCESS_TOKEN_TTL_S,
      },
    );
  }

  verify(token: string): AccessClaims | null {
    try {
      const claims = this.jwt.verify<{ sub?: unknown; sid?: unknown }>(token, {
        algorithms: ['HS256'],
        audience: AUDIENCE,
        issuer: ISSUER,
      });
      if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return null;
      return { sub: claims.sub, sid: claims.sid };
    } catch {
      return null;
    }
  }
}
