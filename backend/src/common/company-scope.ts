import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { CompanyRole } from '../companies/company-user.entity';
import type { AuthenticatedRequest } from './current-user.decorator';

/** What a service needs to scope a query to one user's rows in one company. */
export interface OwnerScope {
  userId: string;
  companyId: string;
}

/** Who is calling, in which company, as what: set by CompanyMemberGuard after it checked membership. */
export interface CompanyScope extends OwnerScope {
  role: CompanyRole;
}

export type ScopedRequest = AuthenticatedRequest & { scope?: CompanyScope };

/** The one handler parameter for company routes, instead of the current user and company apart. */
export const CurrentScope = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CompanyScope => {
    const request = context.switchToHttp().getRequest<ScopedRequest>();
    if (!request.scope) throw new Error('CurrentScope used without CompanyMemberGuard');
    return request.scope;
  },
);
