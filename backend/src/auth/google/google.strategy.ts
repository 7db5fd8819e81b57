import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy, type Profile, type StrategyOptions } from 'passport-google-oauth20';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { GoogleIdentity } from '../auth.service';
import { CookieStateStore } from './cookie-state-store';

export const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';

/** Only provided when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set. */
@Injectable()
export class GoogleStrategy extends PassportStrategy(Strategy, 'google') {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const google = config.google;
    if (!google) throw new Error('Google sign-in is not configured');
    super({
      clientID: google.clientId,
      clientSecret: google.clientSecret,
      callbackURL: `${config.appOrigin}${GOOGLE_CALLBACK_PATH}`,
      authorizationURL: google.authUrl,
      tokenURL: google.tokenUrl,
      userProfileURL: google.userInfoUrl,
      scope: ['openid', 'email', 'profile'],
      state: true,
      pkce: true,
      // The PKCE form of the store (five arguments) is missing from the typings.
      store: new CookieStateStore(
        config.jwtSecret,
        config.appOrigin.startsWith('https://'),
      ) as unknown as StrategyOptions['store'],
    } as StrategyOptions);
  }

  validate(_accessToken: string, _refreshToken: string, profile: Profile): GoogleIdentity {
    const email = profile.emails?.[0];
    const verified = (email as { verified?: unknown } | undefined)?.verified;
    return {
      sub: profile.id,
      email: email?.value ?? null,
      emailVerified: verified === true || verified === 'true',
      firstName: profile.name?.givenName ?? profile.displayName?.split(' ')[0] ?? '',
      lastName: profile.name?.familyName ?? profile.displayName?.split(' ').slice(1).join(' ') ?? '',
    };
  }
}
