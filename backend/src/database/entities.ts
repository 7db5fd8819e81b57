import { AgentCallbackWaitEntity } from '../agent-callbacks/agent-callback-wait.entity';
import { AgentEntity } from '../agents/agent.entity';
import { AuditEntryEntity } from '../audit/audit-entry.entity';
import { ChatEntity } from '../chats/chat.entity';
import { MessageEntity } from '../chats/message.entity';
import { MessageVersionEntity } from '../chats/message-version.entity';
import { AuthTokenEntity } from '../auth/auth-token.entity';
import { SessionEntity } from '../auth/session.entity';
import { CompanyUserEntity } from '../companies/company-user.entity';
import { CompanyEntity } from '../companies/company.entity';
import { FileChunkEntity, StoredFileEntity } from '../files/stored-file.entity';
import { InsightsDailyChatEntity, InsightsHourlyEntity } from '../insights/insights-rollup.entity';
import { WebhookDeliveryEntity } from '../deliveries/webhook-delivery.entity';
import { InvitationEntity } from '../invitations/invitation.entity';
import { AdminSettingsEntity } from '../platform-admin/admin-settings.entity';
import { UserEntity } from '../profiles/user.entity';
import { CompanyQuotasEntity } from '../quotas/company-quotas.entity';
import { CompanyDomainEntity } from '../sso/company-domain.entity';
import { CompanySsoEntity } from '../sso/company-sso.entity';
import { ExternalIdentityEntity } from '../sso/external-identity.entity';
import { VoiceCallEntity } from '../voice/voice-call.entity';

/** Every entity, in one list: the data source and the migration check both use it. */
export const ENTITIES = [
  UserEntity,
  CompanyEntity,
  CompanyUserEntity,
  SessionEntity,
  AuthTokenEntity,
  StoredFileEntity,
  FileChunkEntity,
  AgentEntity,
  ChatEntity,
  MessageEntity,
  MessageVersionEntity,
  InvitationEntity,
  AdminSettingsEntity,
  AuditEntryEntity,
  AgentCallbackWaitEntity,
  VoiceCallEntity,
  CompanySsoEntity,
  CompanyDomainEntity,
  ExternalIdentityEntity,
  InsightsHourlyEntity,
  InsightsDailyChatEntity,
  CompanyQuotasEntity,
  WebhookDeliveryEntity,
];
