import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ChatsModule } from '../chats/chats.module';
import { CompaniesModule } from '../companies/companies.module';
import { ElevenLabsClient } from './elevenlabs.client';
import { VoiceCallsRepository } from './voice-calls.repository';
import { VoiceController } from './voice.controller';
import { VoiceService } from './voice.service';

@Module({
  imports: [AgentsModule, ChatsModule, CompaniesModule],
  controllers: [VoiceController],
  providers: [VoiceService, ElevenLabsClient, VoiceCallsRepository],
})
export class VoiceModule {}
