import { Global, Module } from '@nestjs/common';
import { AuditService } from './audit.service';

/** Global: every feature that changes something audited records it through AuditService. */
@Global()
@Module({ providers: [AuditService], exports: [AuditService] })
export class AuditModule {}
