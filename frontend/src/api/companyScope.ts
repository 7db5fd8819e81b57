import type { RequestOptions } from './httpClient';

/** Company-scoped routes name the current company in a header (400 'No company selected' without it). */
export function inCompany(companyId: string, options: RequestOptions = {}): RequestOptions {
  return { ...options, headers: { ...options.headers, 'X-Company-Id': companyId } };
}
