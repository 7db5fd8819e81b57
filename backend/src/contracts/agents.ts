export interface AgentView {
  /** 'default-agent' for the default agent of the user and company. */
  id: string;
  companyId: string;
  name: string;
  description: string;
  avatar: string;
  /** Null for the default agent (it uses the installation's default webhook). */
  webhook: string | null;
  defaultQuestions: string[];
  elevenlabsAgentId: string | null;
  hasSigningSecret: boolean;
  /** Minutes an agent that answers 202 Accepted has to deliver its reply by callback (1 to 60). */
  callbackDeadlineMinutes: number;
  /** The agent is told of its replies' ratings: a `feedback` event POSTed to its webhook. */
  sendFeedback: boolean;
  /** Files are sent in the webhook body as base64 `data` instead of signed links (small ones). */
  sendFilesInline?: boolean;
  isDefault: boolean;
  isEditable: boolean;
  isActive: boolean;
  createdAt: string;
}

/** A saved agent; `signingSecret` is present only in the answer that generated it. */
export interface AgentWithSecret extends AgentView {
  signingSecret?: string;
}

/** POST /api/agents */
export interface CreateAgentRequest {
  name: string;
  webhook: string;
  description?: string;
  /** Omitted: the server gives the four canned prompts. */
  defaultQuestions?: string[];
  elevenlabsAgentId?: string | null;
  /** true: generate a signing secret (returned once). */
  signed?: boolean;
  /** Omitted: 10 minutes. */
  callbackDeadlineMinutes?: number;
  /** true: POST a `feedback` event to the webhook when the user rates a reply. Omitted: false. */
  sendFeedback?: boolean;
  /** Omitted: false (files are sent as signed links). */
  sendFilesInline?: boolean;
}

/** PATCH /api/agents/:id */
export interface UpdateAgentRequest extends Partial<CreateAgentRequest> {
  /** true: generate a new signing secret (returned once); false: remove it. */
  signed?: boolean;
  isActive?: boolean;
}

/** GET /api/webhook-test */
export interface WebhookTestTarget {
  url: string;
}

/** POST /api/webhook-test */
export interface WebhookTestRequest {
  message: string;
}

export interface WebhookTestResult {
  url: string;
  /** HTTP status, 0 when no answer came. */
  status: number;
  /** The body as received (or what went wrong). */
  raw: string;
  /** The reply as a chat would show it. */
  output: string;
  ok: boolean;
}
