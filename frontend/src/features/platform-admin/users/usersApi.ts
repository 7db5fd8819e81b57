import type {
  InvitePlatformUserRequest,
  PlatformUserPage,
  PlatformUserView,
  UpdatePlatformUserRequest,
} from '@contracts/platform-admin';
import { http } from '../../../api/httpClient';
import { withQuery } from '../../../api/query';

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

/** Platform Admin → Users (superadmins only; the server checks every call). */
export const usersApi = {
  /** One page by email; `search` matches a part of the name or email. */
  list: ({ search, cursor, limit }: { search?: string; cursor?: string | null; limit?: number }) =>
    http.get<PlatformUserPage>(withQuery('/api/admin/users', { search: search?.trim(), cursor, limit })),
  invite: (request: InvitePlatformUserRequest) =>
    http.post<PlatformUserView>('/api/admin/users/invitations', request),
  sendPasswordReset: (id: string) => http.post<void>(`${userPath(id)}/password-reset`, {}),
  update: (id: string, request: UpdatePlatformUserRequest) =>
    http.patch<PlatformUserView>(userPath(id), request),
};
