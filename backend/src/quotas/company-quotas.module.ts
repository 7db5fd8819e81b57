import { Module } from '@nestjs/common';
import { CompanyQuotasRepository } from './company-quotas.repository';
import { CompanyQuotasService } from './company-quotas.service';

/** Company quotas (company_quotas): set by platform admins, checked where what they limit is added. */
@Module({
  providers: [CompanyQuotasRepository, CompanyQuotasService],
  exports: [CompanyQuotasService],
})
export class CompanyQuotasModule {}
