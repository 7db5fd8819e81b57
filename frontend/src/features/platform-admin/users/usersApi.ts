import type {
  InvitePlatformUserRequest,
  PlatformUserPage,
  PlatformUserView,
  UpdatePlatformUserRequest,
} from '@contracts/platform-admin';
import { http } from '../../../api/httpClient';

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

/** Platform Admin → Users (superadmins only; the server checks every call). */
export const usersApi = {
  /** One page by email; `search` matches a part of the name or email. */
  list: (query: { search?: string; cursor?: string | null; limit?: number }) => {
    const params = new URLSearchParams();
    if (query.search?.trim()) params.set('search', query.search.trim());
    if (query.cursor) params.set('cursor', query.cursor);
    if (query.limit) params.set('limit', String(query.limit));
    const qs = params.toString();
    return http.get<PlatformUserPage>(`/api/admin/users${qs ? `?${qs}` : ''}`);
  },
  invite: (request: InvitePlatformUserRequest) =>
    http.post<PlatformUserView>('/api/admin/users/invitations', request),
  sendPasswordReset: (id: string) => http.post<void>(`${userPath(id)}/password-reset`, {}),
  update: (id: string, request: UpdatePlatformUserRequest) =>
    http.patch<PlatformUserView>(userPath(id), request),
};
