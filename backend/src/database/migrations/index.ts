import { Foundation1763770000000 } from './1763770000000-foundation';
import { AgentsChats1763780000000 } from './1763780000000-agents-chats';
import { AccountSecurity1763790000000 } from './1763790000000-account-security';
import { Invitations1763800000000 } from './1763800000000-invitations';
import { PlatformAdmin1763810000000 } from './1763810000000-platform-admin';
import { AuditActorLabel1763813000000 } from './1763813000000-audit-actor-label';
import { VoiceTurns1763830000000 } from './1763830000000-voice-turns';
import { OnePendingReply1763840000000 } from './1763840000000-one-pending-reply';
import { ReplyInterrupted1763900000000 } from './1763900000000-reply-interrupted';
import { AgentCallbacks1763910000000 } from './1763910000000-agent-callbacks';
import { ChatListKeyset1763930000000 } from './1763930000000-chat-list-keyset';
import { MemberListKeyset1763930000001 } from './1763930000001-member-list-keyset';
import { MessageSearch1763920000000 } from './1763920000000-message-search';
import { InvitationMailProof1763940000000 } from './1763940000000-invitation-mail-proof';
import { VoiceCalls1763940000001 } from './1763940000001-voice-calls';
import { MessageAttachments1763950000000 } from './1763950000000-message-attachments';
import { AgentFilesInline1763950000001 } from './1763950000001-agent-files-inline';
import { ReplyFeedback1763960000000 } from './1763960000000-reply-feedback';
import { CompanySso1763970000000 } from './1763970000000-company-sso';
import { SsoSignIn1763970000001 } from './1763970000001-sso-sign-in';
import { ReplyVersions1763980000000 } from './1763980000000-reply-versions';
import { CompanyQuotas1763990000000 } from './1763990000000-company-quotas';
import { FileNameSearch1763990000001 } from './1763990000001-file-name-search';
import { InsightsRollups1764000000000 } from './1764000000000-insights-rollups';
import { CompanyRemovals1764010000000 } from './1764010000000-company-removals';
import { WebhookDeliveries1764020000000 } from './1764020000000-webhook-deliveries';
import { MessageQuotas1764030000000 } from './1764030000000-message-quotas';
import { DailyChatMessages1764030000001 } from './1764030000001-daily-chat-messages';

/** Applied in order at boot; the schema never changes any other way. */
export const MIGRATIONS = [
  Foundation1763770000000,
  AgentsChats1763780000000,
  AccountSecurity1763790000000,
  Invitations1763800000000,
  PlatformAdmin1763810000000,
  AuditActorLabel1763813000000,
  VoiceTurns1763830000000,
  OnePendingReply1763840000000,
  ReplyInterrupted1763900000000,
  AgentCallbacks1763910000000,
  MessageSearch1763920000000,
  ChatListKeyset1763930000000,
  MemberListKeyset1763930000001,
  InvitationMailProof1763940000000,
  VoiceCalls1763940000001,
  MessageAttachments1763950000000,
  AgentFilesInline1763950000001,
  ReplyFeedback1763960000000,
  CompanySso1763970000000,
  SsoSignIn1763970000001,
  ReplyVersions1763980000000,
  CompanyQuotas1763990000000,
  FileNameSearch1763990000001,
  InsightsRollups1764000000000,
  CompanyRemovals1764010000000,
  WebhookDeliveries1764020000000,
  MessageQuotas1764030000000,
  DailyChatMessages1764030000001,
];
