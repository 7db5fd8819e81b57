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
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Messages each member may send per UTC day; null: no limit',
  })
  messagesPerUserPerDay: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Messages its members may send in all per calendar month (UTC); null: no limit',
  })
  messagesPerCompanyPerMonth: number | null;
  @ApiProperty({ description: 'Messages its members sent this calendar month (UTC)' })
  messagesThisMonth: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "The viewer's messages today (UTC) in this company; null on Platform Admin",
  })
  yourMessagesToday: number | null;
}
