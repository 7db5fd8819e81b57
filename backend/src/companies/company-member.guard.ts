import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from '../common/current-user.decorator';
import { NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { COMPANY_NOT_FOUND, CompaniesService } from './companies.service';
import type { CompanyRole } from './company-user.entity';

export const COMPANY_HEADER = 'x-company-id';

export interface CompanyScope {
  companyId: string;
  role: CompanyRole;
}

type ScopedRequest = AuthenticatedRequest & { company?: CompanyScope };

/**
 * Company data is reached only through the company named in the X-Company-Id header, and only by its
 * members: the guard checks membership on every request and hands the scope to the handler.
 */
@Injectable()
export class CompanyMemberGuard implements CanActivate {
  constructor(private readonly companies: CompaniesService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    const header = request.headers[COMPANY_HEADER];
    const companyId = Array.isArray(header) ? header[0] : header;
    if (!companyId) throw new ValidationFailedError('No company selected');
    if (!request.user) return false;
    const known = request.user.membership;
    const role =
      known && known.companyId === companyId
        ? known.role
        : await this.companies.roleOf(request.user.id, companyId);
    if (!role) throw new NotFoundError(COMPANY_NOT_FOUND);
    request.company = { companyId, role };
    return true;
  }
}

export const CurrentCompany = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CompanyScope => {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    if (!request.company) throw new Error('CurrentCompany used without CompanyMemberGuard');
    return request.company;
  },
);
