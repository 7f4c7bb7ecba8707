// The local logger: one datagram per record to a unix datagram socket, like syslog's /dev/log.
// Node has no AF_UNIX SOCK_DGRAM of its own; unix-dgram (a small native addon) provides it.
// When the receiver's queue is full, records wait (up to a bound) until it drains; when the
// receiver is missing, records are dropped and the socket reconnects on the next record.

import { createRequire } from 'node:module';
import type unixDgramModule from 'unix-dgram';
import type { UnixDatagramSocket } from 'unix-dgram';
import type { LocalSettings } from '../config.js';
import type { LogSink, SinkEnvironment } from './sink.js';

const MAX_QUEUED_RECORDS = 10_000;

/** The addon, loaded when a local logger first connects: a node without one does not load it at start. */
const unixDgram = (): typeof unixDgramModule => createRequire(import.meta.url)('unix-dgram') as typeof unixDgramModule;

export class LocalSink implements LogSink<LocalSettings> {
  private path: string;
  private socket: UnixDatagramSocket | undefined;
  /** Records waiting for a congested receiver, oldest first. */
  private queue: Buffer[] = [];
  private congested = false;
  private drained: (() => void) | undefined;

  constructor(settings: LocalSettings, private readonly environment: SinkEnvironment) {
    this.path = settings.path;
  }

  write(text: string): void {
    if (this.queue.length >= MAX_QUEUED_RECORDS) {
      this.environment.problems.fail(`sending to ${this.path}`, 'the receiver is not reading; records are dropped');
      return;
    }
    this.queue.push(Buffer.from(text));
    if (!this.congested) this.sendQueued();
  }

  update(settings: LocalSettings): void {
    if (settings.path === this.path) return;
    this.disconnect();
    this.path = settings.path;
    // Records still waiting for a congested old receiver go to the new one, so none is lost.
    if (this.queue.length > 0) this.sendQueued();
  }

  /** Waits up to the grace period for a congested receiver to take the queued records. */
  async close(): Promise<void> {
    if (this.congested) {
      await new Promise<void>((resolve) => {
        this.drained = resolve;
        setTimeout(resolve, this.environment.closeGraceMs).unref();
      });
    }
    this.disconnect();
    this.queue = [];
  }

  private sendQueued(): void {
    const socket = this.connectedSocket();
    if (!socket) {
      this.queue = [];
      return;
    }
    while (this.queue.length > 0 && !this.congested) {
      const message = this.queue[0];
      socket.send(message, (error) => {
        if (error?.message === 'congestion') {
          this.congested = true;
          return;
        }
        this.queue.shift();
        if (!error) {
          this.environment.problems.succeeded();
          return;
        }
        // The receiver went away (or the record is too large for a datagram): drop the
        // record and reconnect for the next one.
        this.environment.problems.fail(`sending to ${this.path}`, error);
        this.disconnect();
      });
      if (!this.socket) {
        this.queue = [];
        return;
      }
    }
  }

  private connectedSocket(): UnixDatagramSocket | undefined {
    if (this.socket) return this.socket;
    const socket = unixDgram().createSocket('unix_dgram');
    let failure: Error | undefined;
    socket.on('error', (err: Error) => (failure = err));
    socket.connect(this.path);
    if (!socket.connected) {
      socket.close();
      this.environment.problems.fail(`connecting to ${this.path}`, failure ?? 'not connected');
      return undefined;
    }
    socket.on('writable', () => {
      this.congested = false;
      this.sendQueued();
      if (!this.congested && this.queue.length === 0) this.drained?.();
    });
    this.socket = socket;
    return socket;
  }

  private disconnect(): void {
    this.socket?.close();
    this.socket = undefined;
    this.congested = false;
  }
}
