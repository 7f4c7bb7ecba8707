import type { SinkSettings } from '../config.js';
import { ConsoleSink } from './console.js';
import { FileSink } from './file.js';
import { LocalSink } from './local.js';
import { PipeSink } from './pipe.js';
import type { LogSink, SinkEnvironment } from './sink.js';

/**
 * The sink for a logger's settings. Logging only ever updates a sink with settings of the type
 * it was created with, which is what makes the widening to LogSink<SinkSettings> sound.
 */
export function createSink(settings: SinkSettings, environment: SinkEnvironment): LogSink<SinkSettings> {
  switch (settings.type) {
    case 'console':
      return new ConsoleSink(environment) as LogSink<SinkSettings>;
    case 'file':
      return new FileSink(settings, environment) as LogSink<SinkSettings>;
    case 'local':
      return new LocalSink(settings, environment) as LogSink<SinkSettings>;
    case 'pipe':
      return new PipeSink(settings, environment) as LogSink<SinkSettings>;
  }
}
