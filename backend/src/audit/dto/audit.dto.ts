import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsString, IsUUID, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditEntryView,
  type AuditPage,
  type AuditTargetType,
} from '../../contracts/audit';

/** `?actor=` sent empty means "no filter": the filter form sends every field. */
const blankIsAbsent = ({ value }: { value: unknown }) =>
  typeof value === 'string' && !value.trim() ? undefined : typeof value === 'string' ? value.trim() : value;

const MAX_BIGINT = 9223372036854775807n;

/** An audit entry id used as a cursor: digits that fit PostgreSQL's bigint. */
function IsAuditCursor(message: string): PropertyDecorator {
  return ValidateBy({
    name: 'isAuditCursor',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && /^\d{1,19}$/.test(value) && BigInt(value) <= MAX_BIGINT,
      defaultMessage: () => message,
    },
  });
}

/** Company Admin → Activity: the company comes from X-Company-Id. */
export class CompanyActivityQuery {
  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @OptionalNotNull()
  @Transform(blankIsAbsent)
  @IsIn(AUDIT_ACTIONS, { message: 'Unknown action: choose one of the audit log actions.' })
  action?: AuditAction;

  @ApiPropertyOptional({ description: "The actor's user id, or the start of their email (any case)" })
  @OptionalNotNull()
  @Transform(blankIsAbsent)
  @IsString({ message: 'actor must be text' })
  @MaxLength(320, { message: 'actor must be at most 320 characters' })
  actor?: string;

  @ApiPropertyOptional({ description: 'Cursor: entries older than this id (the nextCursor of a page)' })
  @OptionalNotNull()
  @Transform(blankIsAbsent)
  @IsAuditCursor('before must be an audit entry id (the nextCursor of the previous page)')
  before?: string;

  @ApiPropertyOptional({ default: 50, maximum: 200 })
  @OptionalNotNull()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? (value.trim() ? Number(value) : undefined) : value,
  )
  @Min(1, { message: 'limit must be between 1 and 200' })
  @Max(200, { message: 'limit must be between 1 and 200' })
  @IsInt({ message: 'limit must be a whole number' })
  limit?: number;
}

/** Platform Admin → Security: every entry, optionally one company's. */
export class AuditLogQuery extends CompanyActivityQuery {
  @ApiPropertyOptional({ description: 'Only entries about this company' })
  @OptionalNotNull()
  @Transform(blankIsAbsent)
  @IsString({ message: 'companyId must be a company id' })
  @IsUUID('all', { message: 'companyId must be a company id' })
  companyId?: string;
}

class AuditActorDto {
  @ApiProperty({ nullable: true, type: String }) id: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Email at the time (or the email tried)' })
  label: string | null;
}

class AuditTargetDto {
  @ApiProperty({ enum: ['user', 'company', 'agent', 'invitation', 'settings'] }) type: AuditTargetType;
  @ApiProperty({ nullable: true, type: String }) id: string | null;
  @ApiProperty({ nullable: true, type: String }) label: string | null;
}

class AuditCompanyDto {
  @ApiProperty() id: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
}

export class AuditEntryDto implements AuditEntryView {
  @ApiProperty({ description: 'Also the paging cursor' }) id: string;
  @ApiProperty({ enum: AUDIT_ACTIONS }) action: AuditAction;
  @ApiProperty({ type: AuditActorDto, nullable: true }) actor: AuditActorDto | null;
  @ApiProperty({ type: AuditTargetDto, nullable: true }) target: AuditTargetDto | null;
  @ApiProperty({ type: AuditCompanyDto, nullable: true }) company: AuditCompanyDto | null;
  @ApiProperty({ nullable: true, type: String }) ip: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details: Record<string, unknown>;
  @ApiProperty() createdAt: string;
}

export class AuditPageDto implements AuditPage {
  @ApiProperty({ type: [AuditEntryDto], description: 'Newest first' }) entries: AuditEntryDto[];
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The `before` of the next page; null at the end',
  })
  nextCursor: string | null;
}
