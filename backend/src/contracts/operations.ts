/**
 * Operator tools reached from the app.
 *
 * The queue dashboard (bull-board) lives at `QUEUE_DASHBOARD_PATH`, on the api's origin, only when the
 * installation runs on Redis (`REDIS_URL`). A browser navigation carries no access token, so a signed-in
 * superadmin first calls `POST /api/admin/queues/session` (Bearer token, same origin, no body): it sets
 * a short-lived httpOnly cookie scoped to that path, then the app opens the path (a new tab is fine).
 * Every request of the dashboard checks the cookie, that its session is still signed in and that the
 * user is still a superadmin; the cookie is renewed while the dashboard is in use.
 *
 * Answers of the POST: 201 `QueueDashboardSession`; 401 signed out; 403 not a superadmin or another
 * site; 404 the installation has no Redis, so no queue dashboard.
 */
export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';

/** 201 from `POST /api/admin/queues/session`. */
export interface QueueDashboardSession {
  /** Where to open the dashboard: `QUEUE_DASHBOARD_PATH`. */
  url: string;
  /** When the cookie lapses unless the dashboard is used before (ISO 8601). */
  expiresAt: string;
}
