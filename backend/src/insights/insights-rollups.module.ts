import { Module } from '@nestjs/common';
import { InsightsRollupsRepository } from './insights-rollups.repository';
import { InsightsRecorder, InsightsTicker } from './insights-recorder';

/** What the message path uses of Insights: the recorder and the managers' tick (api and worker). */
@Module({
  providers: [InsightsRecorder, InsightsTicker, InsightsRollupsRepository],
  exports: [InsightsRecorder, InsightsTicker],
})
export class InsightsRollupsModule {}
