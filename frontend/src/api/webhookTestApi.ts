import { http } from './httpClient';

export interface WebhookTestResult {
  url: string;
  /** HTTP status, 0 when no answer came. */
  status: number;
  raw: string;
  output: string;
  ok: boolean;
}

export const webhookTestApi = {
  address: () => http.get<{ url: string }>('/api/webhook-test'),
  send: (message: string) => http.post<WebhookTestResult>('/api/webhook-test', { message }),
};
