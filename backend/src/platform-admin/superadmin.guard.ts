import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { AuthenticatedRequest } from '../common/current-user.decorator';
import { ForbiddenError, UnauthorizedError } from '../common/domain-errors';

export const SUPERADMIN_REQUIRED = 'Only platform administrators can do this.';

/**
 * Platform administration: superadmins only. The global AccessTokenGuard runs first and loads the
 * caller from the database on every request (SessionsService.activeUser: the live session, the
 * account's is_superadmin, and no disabled account), so a demotion or a disable takes effect on the
 * very next request; the token's own claims are never trusted for this.
 */
@Injectable()
export class SuperadminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!request.user) throw new UnauthorizedError();
    if (!request.user.isSuperadmin) throw new ForbiddenError(SUPERADMIN_REQUIRED);
    return true;
  }
}

/** Marks a controller or route as platform administration (403 for everyone but superadmins). */
export const SuperadminOnly = (): MethodDecorator & ClassDecorator =>
  applyDecorators(UseGuards(SuperadminGuard));
