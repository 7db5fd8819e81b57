import { inCompany } from './companyScope';
import type { AgentView } from './contracts';
import { http } from './httpClient';

export interface CreateAgentRequest {
  name: string;
  webhook: string;
  description?: string;
  /** Omitted: the server gives the four canned prompts. */
  defaultQuestions?: string[];
  elevenlabsAgentId?: string | null;
  signed?: boolean;
}

export interface UpdateAgentRequest {
  name?: string;
  description?: string;
  webhook?: string;
  defaultQuestions?: string[];
  elevenlabsAgentId?: string | null;
  /** true: generate a new signing secret (returned once); false: remove it. */
  signed?: boolean;
  isActive?: boolean;
}

/** A saved agent; `signingSecret` is present only in the answer that generated it. */
export type AgentWithSecret = AgentView & { signingSecret?: string };

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
