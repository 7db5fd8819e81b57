import { inCompany } from './companyScope';
import type { AgentView, AgentWithSecret, CreateAgentRequest, UpdateAgentRequest } from './contracts';
import { http } from './httpClient';

const agentPath = (id: string) => `/api/agents/${encodeURIComponent(id)}`;

export const agentsApi = {
  list: (companyId: string) => http.get<AgentView[]>('/api/agents', inCompany(companyId)),
  create: (companyId: string, request: CreateAgentRequest) =>
    http.post<AgentWithSecret>('/api/agents', request, inCompany(companyId)),
  update: (companyId: string, id: string, request: UpdateAgentRequest) =>
    http.patch<AgentWithSecret>(agentPath(id), request, inCompany(companyId)),
  remove: (companyId: string, id: string) => http.delete<void>(agentPath(id), inCompany(companyId)),
  uploadAvatar: (companyId: string, id: string, file: File) => {
    const formData = new FormData();
    formData.append('file', file);
    return http.request<AgentView>('POST', `${agentPath(id)}/avatar`, inCompany(companyId, { formData }));
  },
};
