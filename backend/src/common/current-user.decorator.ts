import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** Who is calling: set by the access-token guard. */
export interface AuthUser {
  id: string;
  sessionId: string;
  isSuperadmin: boolean;
  /** The caller's role in the company named by X-Company-Id (null: not a member), when one was named. */
  membership?: {
    companyId: string;
    role: 'owner' | 'admin' | 'user' | null;
    /** The company requires single sign-on and this session was not made through it. */
    ssoRefused?: boolean;
  };
}

export type AuthenticatedRequest = Request & { user?: AuthUser };

export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthUser => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.user) throw new Error('CurrentUser used on a public route');
  return request.user;
});
