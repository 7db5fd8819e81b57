import { Module } from '@nestjs/common';
import { DeliveriesPruner } from './deliveries-pruner';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryRecorder } from './delivery-recorder';

/** What the message path uses of the delivery log (api and worker): the recorder, and the pruning job. */
@Module({
  providers: [DeliveryRecorder, DeliveriesRepository, DeliveriesPruner],
  exports: [DeliveryRecorder, DeliveriesRepository],
})
export class DeliveriesRecordingModule {}
