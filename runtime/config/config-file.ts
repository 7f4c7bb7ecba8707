import { join } from 'node:path';
import { readJsonFile, writeJsonFile } from '../fs/json-file.js';
import { ConfigError } from './errors.js';

// The configuration persists as `<dir>/config.json`, the whole object including fields this
// node does not know (docs/administration.md §2), so a restart serves exactly what the last PUT stored.

export const CONFIG_FILE = 'config.json';

/** The stored configuration object, or undefined when the directory has none yet. */
export function readConfigFile(dir: string): Record<string, unknown> | undefined {
  const file = join(dir, CONFIG_FILE);
  const bad = (problem: string) => new ConfigError('CONFIG_BAD_FILE', `${file}: ${problem}`);
  const value = readJsonFile(file, bad);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('expected a JSON object');
  return value as Record<string, unknown>;
}

/** Replaces the stored configuration; a crash leaves either the old file or the new one. */
export function writeConfigFile(dir: string, config: object): void {
  writeJsonFile(join(dir, CONFIG_FILE), config);
}
