/** Codes an error answer can carry; the client acts on some beyond the status (e.g. offering a resend). */
export type ApiErrorCode =
  | 'VALIDATION_FAILED'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  /** 410: an agent callback past its deadline. */
  | 'GONE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE'
  | 'SERVER_ERROR'
  /** Another 4xx without a code of its own. */
  | 'BAD_REQUEST'
  | 'ERROR'
  /** 403 from sign-in: 'Please verify your email first'. */
  | 'EMAIL_NOT_VERIFIED'
  /** 403: the company requires single sign-on and this session was not made through its provider. */
  | 'SSO_REQUIRED';

/** The body of every error answer (the exception filter's one shape). */
export interface ApiErrorBody {
  statusCode: number;
  error: ApiErrorCode;
  /** A sentence a person can read. */
  message: string;
}
