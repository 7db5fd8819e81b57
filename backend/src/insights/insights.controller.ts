import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { CompanyScoped } from '../companies/company-member.guard';
import { InsightsQueryDto, InsightsReportDto } from './dto/insights.dto';
import { InsightsService } from './insights.service';

/** Company Admin → Insights of the company named by X-Company-Id: owners and admins (others: 403/404). */
@CompanyScoped('company admin', 'The company whose numbers to read')
@Controller('company/insights')
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Get()
  @ApiOkResponse({
    type: InsightsReportDto,
    description: 'Totals per agent and in all, and the series, over whole hours (UTC)',
  })
  report(@CurrentScope() scope: CompanyScope, @Query() query: InsightsQueryDto): Promise<InsightsReportDto> {
    return this.insights.report(scope, query);
  }
}
