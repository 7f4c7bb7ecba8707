import type { ListenSpec } from '../config/server-config.js';
import { UsageError } from './args.js';

/** A `--listen` value: [addr:]port (addr 127.0.0.1 by default), or a unix socket path (one with a '/'). */
export function parseListen(value: string): ListenSpec {
  if (value.includes('/')) return { protocol: 'local', path: value };
  const m = /^(?:(.*):)?(\d+)$/.exec(value);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port < 65536)) throw new UsageError(`--listen: '${value}' is not a port, address:port or socket path`);
  return { protocol: 'http', address: m[1] || '127.0.0.1', port };
}
