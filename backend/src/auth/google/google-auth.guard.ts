import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

/** Runs the Google strategy; failures leave `req.user` empty so the callback can redirect with a message. */
@Injectable()
export class GoogleAuthGuard extends AuthGuard('google') {
  override handleRequest<TUser>(error: unknown, user: TUser): TUser {
    if (error || !user) return null as TUser;
    return user;
  }

  override getAuthenticateOptions(): { session: boolean; prompt: string } {
    return { session: false, prompt: 'select_account' };
  }
}
