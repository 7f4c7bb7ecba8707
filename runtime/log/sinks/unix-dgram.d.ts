// The part of unix-dgram 2.0.7 (a native addon without type declarations) the local logger uses.
declare module 'unix-dgram' {
  import type { EventEmitter } from 'node:events';

  export interface UnixDatagramSocket extends EventEmitter {
    /** Emits 'listening' or 'error' synchronously. */
    bind(path: string): void;
    /** Emits 'connect' or 'error' synchronously and sets `connected`. */
    connect(path: string): void;
    readonly connected?: boolean;
    /**
     * On a connected socket. The callback gets an error whose message is 'congestion' when the
     * receiver's queue is full; the socket then emits 'writable' once it can send again.
     */
    send(message: Buffer, callback: (error?: Error) => void): void;
    close(): void;
  }

  const unixDgram: {
    createSocket(type: 'unix_dgram', onMessage?: (message: Buffer) => void): UnixDatagramSocket;
  };
  export = unixDgram;
}
