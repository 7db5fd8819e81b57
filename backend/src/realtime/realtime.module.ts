import { DynamicModule, Global, Module } from '@nestjs/common';
import { GatewayPublisher, RedisEmitterPublisher } from './publishers';
import { RealtimePublisher } from './realtime-publisher';
import { SocketServerRef } from './socket-server.ref';

/** Provides RealtimePublisher: the api's own server, or (worker) the Redis emitter. */
@Global()
@Module({})
export class RealtimeModule {
  static forApi(): DynamicModule {
    return {
      module: RealtimeModule,
      providers: [
        SocketServerRef,
        GatewayPublisher,
        { provide: RealtimePublisher, useExisting: GatewayPublisher },
      ],
      exports: [RealtimePublisher, SocketServerRef],
    };
  }

  static forWorker(redisUrl: string): DynamicModule {
    return {
      module: RealtimeModule,
      providers: [{ provide: RealtimePublisher, useFactory: () => new RedisEmitterPublisher(redisUrl) }],
      exports: [RealtimePublisher],
    };
  }
}
