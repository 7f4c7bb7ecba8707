import type { ServerConfig } from '../config/server-config.js';
import type { Logging } from '../log/index.js';
import { cacheLockProblems, readMemoryLockLimits } from '../metrics/cache-lock.js';

/**
 * Status `slow`: whether the configured `database_cache_size` could not be locked in memory (what
 * is checked: metrics/cache-lock.ts). Checked once at start; the reasons go to the log.
 */
export function databaseCacheIsSlow(config: ServerConfig, logging: Logging): boolean {
  const bytes = config.database_cache_size;
  if (bytes === undefined) return false;
  const limits = readMemoryLockLimits();
  if (limits === undefined) return false;
  const problems = cacheLockProblems(BigInt(bytes), limits);
  if (problems.length === 0) return false;
  logging.warning('service', `a database cache of ${bytes} bytes cannot be locked in memory; performance may be reduced: ${problems.join('; ')}`);
  return true;
}
