import { Injectable } from '@nestjs/common';
import type { Server } from 'socket.io';

/** Holds the api's Socket.IO server once the gateway is up; publishers read it from here. */
@Injectable()
export class SocketServerRef {
  server: Server | null = null;
}
