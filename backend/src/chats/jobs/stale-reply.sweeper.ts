import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ChatsService } from '../chats.service';

const SWEEP_EVERY_MS = 30_000;

/** Fails replies stuck in 'pending' (a worker died mid-call), so no typing indicator sticks. */
@Injectable()
export class StaleReplySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('StaleReplySweeper');
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly chats: ChatsService) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.chats.failStaleReplies().then(
        (n) => n && this.logger.warn(`Failed ${n} replies that were pending too long`),
        (error: unknown) => this.logger.error(String(error)),
      );
    }, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
