import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { CompanyScope, ScopedRequest } from '../common/company-scope';
import type { AuthUser } from '../common/current-user.decorator';
import { DomainError, NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { isUuid } from '../common/uuid';
import { SSO_REQUIRED_MESSAGE } from '../contracts/sso';
import { COMPANY_NOT_FOUND, CompaniesService } from './companies.service';

export const COMPANY_HEADER = 'x-company-id';

/**
 * Company data is reached only through the company named in the X-Company-Id header, and only by its
 * members: the guard checks membership on every request and hands the scope ({ userId, companyId, role })
 * to the handler through @CurrentScope().
 */
@Injectable()
export class CompanyMemberGuard implements CanActivate {
  constructor(private readonly companies: CompaniesService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const companyId = companyIdOf(request);
    if (!request.user) return false;
    request.scope = await this.scopeOf(request.user, companyId);
    return true;
  }

  /**
   * The guard's check once the company is named and the caller known (also called by the lean
   * send-message route): the caller's scope in that company, or the error that refuses them.
   */
  async scopeOf(user: AuthUser, companyId: string): Promise<CompanyScope> {
    if (!isUuid(companyId)) throw new NotFoundError(COMPANY_NOT_FOUND);
    const known = user.membership;
    const role =
      known && known.companyId === companyId ? known.role : await this.companies.roleOf(user.id, companyId);
    if (!role) throw new NotFoundError(COMPANY_NOT_FOUND);
    // "Members must use SSO": read with the session by the access token guard (one query).
    if (known && known.companyId === companyId && known.ssoRefused)
      throw new DomainError('SSO_REQUIRED', SSO_REQUIRED_MESSAGE);
    return { userId: user.id, companyId, role };
  }
}

/** The company the X-Company-Id header names, or a 400 when it names none. */
export function companyIdOf(request: Request): string {
  const header = request.headers[COMPANY_HEADER];
  // Lower-cased like the access token guard's read of it: a UUID in capitals names the same company, and
  // the scope's id names rooms (an event to `company:ABC…` would reach no socket).
  const companyId = (Array.isArray(header) ? header[0] : header)?.toLowerCase();
  if (!companyId) throw new ValidationFailedError('No company selected');
  return companyId;
}

/**
 * A controller whose routes act in the company named by X-Company-Id: the guard checks the caller's
 * membership (and `@CurrentScope()` reads it), and the API docs show the header and the bearer token.
 * `company` says which company the header names, for the docs.
 */
export const CompanyScoped = (tag: string, company = 'The current company'): ClassDecorator =>
  applyDecorators(
    ApiTags(tag),
    ApiBearerAuth(),
    ApiHeader({ name: 'X-Company-Id', required: true, description: company }),
    UseGuards(CompanyMemberGuard),
  );
