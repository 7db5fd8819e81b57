import { Global, Module } from '@nestjs/common';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** Global: every feature that changes something audited records it through AuditService. */
@Global()
@Module({ providers: [AuditService, AuditRepository], exports: [AuditService, AuditRepository] })
export class AuditModule {}
