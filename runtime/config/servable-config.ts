import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { resolveInNodeDir } from '../fs/node-dir-paths.js';
import { ConfigError } from './errors.js';
import type { ListenSpec, ServerConfig } from './server-config.js';
import { checkTlsContext, readTlsFiles } from './tls-context.js';

// A configuration put while the node runs must leave it reachable now and startable later:
// without hosts nothing but /native answers (not even /config, to undo it), and listeners or
// TLS files that cannot serve only fail at the next start, when nobody is there to see it.

function fail(field: string, problem: string): never {
  throw new ConfigError('CONFIG_BAD_FIELD', `${field}: ${problem}`);
}

/** Resolves when this host has an interface with `address` (probed on a port the system picks). */
function canBind(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port: 0, host: address, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function checkListeners(listen: readonly ListenSpec[], directory: string): Promise<void> {
  if (listen.length === 0) fail('listen', 'at least one interface is needed, or the node cannot be reached');
  const seen = new Map<string, number>();
  for (const [i, spec] of listen.entries()) {
    const field = `listen[${i}]`;
    const where = spec.protocol === 'local' ? resolveInNodeDir(directory, spec.path) : `${spec.address}:${spec.port}`;
    const first = seen.get(where);
    // Port 0 asks the system for a fresh port, so several of those never collide.
    if (first !== undefined && (spec.protocol === 'local' || spec.port !== 0)) fail(field, `${where} is listen[${first}]'s too`);
    seen.set(where, i);
    if (spec.protocol === 'local') {
      if (!existsSync(dirname(where))) fail(`${field}.path`, `the directory of ${where} does not exist`);
    } else if (!(await canBind(spec.address))) {
      fail(`${field}.address`, `'${spec.address}' is not an address of this host`);
    }
  }
}

/**
 * Throws a ConfigError naming the field when `config` (already checked field by field) would
 * leave the node unreachable or fail its next start: no host, no listener, a listener that
 * cannot open, TLS files that cannot be read or make no TLS context.
 */
export async function checkServable(config: ServerConfig, directory: string): Promise<void> {
  if (config.hosts.length === 0) fail('hosts', 'at least one host name is needed, or only /native would answer');
  await checkListeners(config.listen, directory);
  if (config.tls === undefined) return;
  const options = readTlsFiles(directory, config.tls);
  if (options.cert !== undefined && options.key !== undefined) checkTlsContext(options);
}
