/** Every job the system runs, with its payload. The registry refuses to boot if one has no handler. */
export interface MailSendJob {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Account mail whose recipient must be looked up (or whose existence must not show in the answer): the
 * request only enqueues it, so an address with an account and one without answer alike.
 */
export type AccountMailJob =
  | { kind: 'password-reset'; email: string }
  | { kind: 'verify-email'; email: string }
  | { kind: 'registration-attempt'; email: string }
  | { kind: 'email-change'; userId: string; newEmail: string }
  | { kind: 'email-changed'; oldEmail: string; newEmail: string };

/** A registration to carry out out of sight of the request (REQUIRE_EMAIL_VERIFICATION=true). */
export interface AccountRegisterJob {
  email: string;
  /** argon2id hash: the password itself never leaves the request. */
  passwordHash: string;
  firstName: string;
  lastName: string;
  companyName: string;
}

export interface AgentReplyJob {
  messageId: string;
  /**
   * The round of the reply (absent: 0, the first answer). A job of an earlier round finds nothing to
   * do: the message was asked again since.
   */
  round?: number;
  /** A regenerate: the reply it replaces (the webhook body says `regenerate: true` with it). */
  previousReplyId?: string | null;
  /** An edit: the message's text changed, and the reply is asked for from the new text. */
  edited?: boolean;
  /** A replay from the delivery log: the delivery (failed) this round replays. */
  replayOf?: string;
}

/**
 * A user rated (or took back the rating of) an agent reply whose agent asked to be told: the rating as
 * it was given, POSTed to the agent's webhook as a `feedback` event. `eventId` is the delivery's
 * `webhook-id` (stable across its retries).
 */
export interface AgentFeedbackJob {
  eventId: string;
  replyId: string;
  score: 'like' | 'dislike' | null;
  reason: string | null;
  ratedAt: string;
}

/** A periodic job with nothing to say but "it is time". */
export type SweepJob = Record<string, never>;

export interface JobPayloads {
  'mail.send': MailSendJob;
  'agent.reply': AgentReplyJob;
  'agent.feedback': AgentFeedbackJob;
  'account.mail': AccountMailJob;
  'account.register': AccountRegisterJob;
  'replies.sweep-stale': SweepJob;
  'files.sweep-unattached': SweepJob;
  'files.abort-abandoned-uploads': SweepJob;
  'insights.compact': SweepJob;
  'deliveries.prune': SweepJob;
}

export type JobName = keyof JobPayloads;

export const JOB_NAMES: readonly JobName[] = [
  'mail.send',
  'agent.reply',
  'agent.feedback',
  'account.mail',
  'account.register',
  'replies.sweep-stale',
  'files.sweep-unattached',
  'files.abort-abandoned-uploads',
  'insights.compact',
  'deliveries.prune',
];

export interface EnqueueOptions {
  /** Makes the job idempotent: a second enqueue with the same id is ignored. */
  jobId?: string;
  attempts?: number;
  /**
   * What the code queueing the job has already read that the job's first attempt would read again: the
   * in-process driver hands it to that attempt (JobMeta.prefetched); a driver that keeps jobs elsewhere
   * (BullMQ: Redis) never sends it, so a stored job stays ids only and each of its attempts reads.
   */
  prefetched?: unknown;
}

/** Thrown by a handler when retrying cannot help (e.g. a 4xx answer). */
export class PermanentJobError extends Error {}

export interface JobMeta {
  /** 1 for the first try. */
  attempt: number;
  maxAttempts: number;
  /** The id the job was queued with (`EnqueueOptions.jobId`), when it has one. */
  jobId?: string;
  /** The `X-Request-Id` of the HTTP request that queued the job: in its logs and its webhook call. */
  requestId?: string;
  /** `EnqueueOptions.prefetched`, on the first attempt of a job run by the process that queued it. */
  prefetched?: unknown;
}
