import { ApiProperty } from '@nestjs/swagger';
import type { CompanyQuotaUsage } from '../contracts/company-quotas';

export class CompanyQuotaUsageDto implements CompanyQuotaUsage {
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Bytes its attached files may take; null: no limit',
  })
  storedBytesLimit: number | null;
  @ApiProperty({ description: 'Bytes its attached files take now' })
  storedBytesUsed: number;
}
