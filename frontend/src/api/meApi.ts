import { http } from './httpClient';
import type { AuthResponse, MeResponse, UpdateProfileRequest, User } from './contracts';

export const meApi = {
  get: () => http.get<MeResponse>('/api/me'),
  update: (request: UpdateProfileRequest) => http.patch<User>('/api/me', request),
  changePassword: (currentPassword: string, newPassword: string) =>
    http.post<AuthResponse>('/api/me/password', { currentPassword, newPassword }),
  uploadAvatar: (file: File) => {
    const formData = new FormData();
    formData.append('file', file);
    return http.request<User>('POST', '/api/me/avatar', { formData });
  },
};
