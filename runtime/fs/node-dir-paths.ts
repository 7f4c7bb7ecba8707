import { isAbsolute, join } from 'node:path';

/** A path of the configuration (local socket, static root, TLS file): relative ones are in the node directory. */
export function resolveInNodeDir(baseDir: string, path: string): string {
  return isAbsolute(path) ? path : join(baseDir, path);
}
