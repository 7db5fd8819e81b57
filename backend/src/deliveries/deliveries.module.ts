import { Module } from '@nestjs/common';
import { ChatsModule } from '../chats/chats.module';
import { CompaniesModule } from '../companies/companies.module';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesRecordingModule } from './deliveries-recording.module';
import { DeliveriesService } from './deliveries.service';

/** Company Admin → Delivery log (the api): reads, Replay, retention. */
@Module({
  imports: [CompaniesModule, ChatsModule, DeliveriesRecordingModule],
  controllers: [DeliveriesController],
  providers: [DeliveriesService],
})
export class DeliveriesModule {}
