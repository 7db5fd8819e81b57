import { Module } from '@nestjs/common';
import { CompanyQuotasRepository } from './company-quotas.repository';
import { CompanyQuotasService } from './company-quotas.service';
import { MessageQuotaService } from './message-quota.service';

/**
 * Company quotas (company_quotas): set by platform admins, checked where what they limit is added
 * (uploads, user messages).
 */
@Module({
  providers: [CompanyQuotasRepository, CompanyQuotasService, MessageQuotaService],
  exports: [CompanyQuotasService, MessageQuotaService],
})
export class CompanyQuotasModule {}
