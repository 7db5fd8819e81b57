import { Module } from '@nestjs/common';
import { InsightsRecorder, InsightsTicker } from './insights-recorder';

/** What the message path uses of Insights: the recorder and the managers' tick (api and worker). */
@Module({
  providers: [InsightsRecorder, InsightsTicker],
  exports: [InsightsRecorder, InsightsTicker],
})
export class InsightsRollupsModule {}
