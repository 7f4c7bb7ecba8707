import { ConfigError } from '../config/errors.js';

const LOGGER_TYPES = new Set(['console', 'file', 'local', 'pipe']);

/** Checks the `loggers` configuration: one object per logger with a known `type`. */
export function checkLoggerConfig(loggers: Record<string, unknown>): void {
  for (const [name, logger] of Object.entries(loggers)) {
    if (typeof logger !== 'object' || logger === null || Array.isArray(logger)) {
      throw new ConfigError('CONFIG_BAD_FIELD', `loggers.${name}: expected an object`);
    }
    const type = (logger as Record<string, unknown>).type;
    if (typeof type !== 'string' || !LOGGER_TYPES.has(type)) {
      throw new ConfigError('CONFIG_BAD_FIELD', `loggers.${name}.type: expected console, file, local or pipe, got ${JSON.stringify(type)}`);
    }
  }
}
