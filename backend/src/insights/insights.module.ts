import { Module } from '@nestjs/common';
import { CompaniesModule } from '../companies/companies.module';
import { InsightsController } from './insights.controller';
import { InsightsRepository } from './insights.repository';
import { InsightsService } from './insights.service';

/** Company Admin → Insights (the api): reads of the rollups the message path keeps. */
@Module({
  imports: [CompaniesModule],
  controllers: [InsightsController],
  providers: [InsightsService, InsightsRepository],
})
export class InsightsModule {}
