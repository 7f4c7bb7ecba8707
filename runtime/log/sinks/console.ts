import type { ConsoleSettings } from '../config.js';
import type { LogSink, SinkEnvironment } from './sink.js';

/** Writes each record as one line to stderr. */
export class ConsoleSink implements LogSink<ConsoleSettings> {
  constructor(private readonly environment: SinkEnvironment) {}

  write(text: string): void {
    this.environment.writeStderr(text + '\n');
  }

  update(): void {
    // A console logger has no settings of its own.
  }

  async close(): Promise<void> {}
}
