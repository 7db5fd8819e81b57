import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UnauthorizedError } from '../common/domain-errors';
import type { AuthenticatedRequest, AuthUser } from '../common/current-user.decorator';
import { IS_PUBLIC } from '../common/public.decorator';
import { COMPANY_HEADER } from '../companies/company-member.guard';
import { AccessTokenService } from './access-token.service';
import { SessionsService } from './sessions.service';

/** Global guard: every route needs a valid access token of a live session unless marked @Public(). */
@Injectable()
export class AccessTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: AccessTokenService,
    private readonly sessions: SessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    await this.authenticate(context.switchToHttp().getRequest<AuthenticatedRequest>());
    return true;
  }

  /**
   * The guard's check, also called by the lean send-message route (chats/send-message.route.ts): the
   * caller of a live session, set as `request.user`, or an UnauthorizedError.
   */
  async authenticate(request: AuthenticatedRequest): Promise<AuthUser> {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const claims = token ? this.tokens.verify(token) : null;
    if (!claims) throw new UnauthorizedError('Authentication required');
    // A revoked session (logout, password change, stolen refresh token) stops working at once.
    const companyHeader = request.headers[COMPANY_HEADER];
    // Lower-cased: a UUID in capitals names the same company, and rooms and scopes use one spelling.
    const companyId = (Array.isArray(companyHeader) ? companyHeader[0] : companyHeader)?.toLowerCase();
    const user = await this.sessions.activeUser(claims.sid, claims.sub, companyId);
    if (!user) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    request.user = {
      id: user.id,
      sessionId: claims.sid,
      isSuperadmin: user.isSuperadmin,
      // Read in the same query, so the company guard needs no second round trip.
      ...(companyId
        ? { membership: { companyId, role: user.companyRole, ssoRefused: user.ssoRefused } }
        : {}),
    };
    return request.user;
  }
}
