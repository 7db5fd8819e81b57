import { Module } from '@nestjs/common';
import { InsightsCompactor } from './insights-compactor';
import { InsightsRollupsRepository } from './insights-rollups.repository';
import { InsightsRecorder, InsightsTicker } from './insights-recorder';

/**
 * What the message path uses of Insights: the recorder and the managers' tick (api and worker), and
 * the job that merges past hours' shards.
 */
@Module({
  providers: [InsightsRecorder, InsightsTicker, InsightsRollupsRepository, InsightsCompactor],
  exports: [InsightsRecorder, InsightsTicker],
})
export class InsightsRollupsModule {}
