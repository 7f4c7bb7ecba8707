import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from '../fs/atomic-file.js';
import { ConfigError } from './errors.js';

// The configuration persists as `<dir>/config.json`, the whole object including fields this
// node does not know (seed 2 §2), so a restart serves exactly what the last PUT stored.

export const CONFIG_FILE = 'config.json';

/** The stored configuration object, or undefined when the directory has none yet. */
export function readConfigFile(dir: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, CONFIG_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError('CONFIG_BAD_FILE', `${join(dir, CONFIG_FILE)}: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError('CONFIG_BAD_FILE', `${join(dir, CONFIG_FILE)}: expected a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** Replaces the stored configuration; a crash leaves either the old file or the new one. */
export function writeConfigFile(dir: string, config: object): void {
  replaceFile(join(dir, CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
}
