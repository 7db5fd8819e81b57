/**
 * Every payload the client reads or sends, and the socket event map. The one source is the backend's
 * `src/contracts/` (plain interfaces its DTOs implement), through the `@contracts` alias; types only.
 */
export type { AgentView, AgentWithSecret, CreateAgentRequest, UpdateAgentRequest } from '@contracts/agents';
export type { WebhookTestResult, WebhookTestTarget } from '@contracts/agents';
export type {
  AuthResponse,
  ConfirmEmailResponse,
  OkResponse,
  ProvidersResponse,
  RegisterRequest,
  RegisterResponse,
  VerificationRequiredResponse,
} from '@contracts/auth';
export type {
  ChatPage,
  ChatView,
  FirstMessageResult,
  MessageFeedback,
  MessagePage,
  MessagePageCursor,
  MessageView,
  UpdateChatRequest,
} from '@contracts/chats';
export type {
  SaveVoiceTurnRequest,
  StartVoiceCallRequest,
  StartVoiceCallResult,
  VoiceConnection,
  VoiceFeedbackRequest,
  VoiceTurnRole,
} from '@contracts/voice';
export type { AuditAction, AuditEntryView, AuditPage, AuditTargetType } from '@contracts/audit';
export type { CompanyMembership, CompanyRole } from '@contracts/companies';
export type { ApiErrorBody, ApiErrorCode } from '@contracts/errors';
export type { ClientEventMap, ClientEventName, MarkedTopic, SyncMarkers } from '@contracts/realtime-events';
export type { RateReplyRequest, StopReplyResult, StreamingReply } from '@contracts/chats';
export type {
  EditMessageRequest,
  MessageVersions,
  MessageVersionView,
  ReplyRequested,
} from '@contracts/chats';
export { FEEDBACK_REASON_MAX } from '@contracts/chats';
export type { MeResponse, UpdateProfileRequest, User } from '@contracts/users';
export type { BootstrapQuery, BootstrapResponse, ChatBootstrap } from '@contracts/bootstrap';
export type {
  AcceptInvitationResponse,
  CreateInvitationRequest,
  InvitationLinkResponse,
  InvitationLookup,
  InvitationRole,
  InvitationStatus,
  InvitationView,
  InvitationWithLink,
  PersonRef,
  RegisterInvitedRequest,
} from '@contracts/invitations';
export type {
  CompanyAgentView,
  CompanyDetails,
  CreateCompanyAgentRequest,
  MemberListQuery,
  MemberPage,
  MemberView,
} from '@contracts/company-admin';
export type {
  AddSsoDomainRequest,
  SsoDomainView,
  SsoSettingsView,
  UpdateSsoSettingsRequest,
  VerifySsoDomainResponse,
} from '@contracts/sso';
export { SSO_REQUIRED_MESSAGE } from '@contracts/sso';
