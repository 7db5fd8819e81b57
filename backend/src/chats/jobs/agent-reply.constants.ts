/** Network errors, timeouts and 5xx are tried this many times in all; 4xx and refusals once. */
export const AGENT_REPLY_ATTEMPTS = 3;
