import type { WebhookTestResult, WebhookTestTarget } from './contracts';
import { http } from './httpClient';

export const webhookTestApi = {
  address: () => http.get<WebhookTestTarget>('/api/webhook-test'),
  send: (message: string) => http.post<WebhookTestResult>('/api/webhook-test', { message }),
};
