import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { resolveInNodeDir } from '../fs/node-dir-paths.js';
import { ConfigError } from './errors.js';
import type { TlsSpec } from './server-config.js';

// The configuration's `tls` files (paths relative to the node directory), read into the options
// of a TLS context. What only the files can tell is refused naming the field, both when a
// configuration is put (so the next start cannot die of it) and when an https listener starts.

function readTlsFile(field: string, baseDir: string, path: string): Buffer {
  const file = resolveInNodeDir(baseDir, path);
  try {
    return readFileSync(file);
  } catch (err) {
    throw new ConfigError('CONFIG_BAD_FIELD', `${field}: cannot read ${file}: ${(err as Error).message}`);
  }
}

/** Reads every file `tls` names; a file that cannot be read is a ConfigError naming its field. */
export function readTlsFiles(baseDir: string, tls: TlsSpec): SecureContextOptions {
  return {
    ...(tls.certificate !== undefined ? { cert: readTlsFile('tls.certificate', baseDir, tls.certificate) } : {}),
    ...(tls.key !== undefined ? { key: readTlsFile('tls.key', baseDir, tls.key) } : {}),
    ...(tls.trustfiles?.length ? { ca: tls.trustfiles.map((f, i) => readTlsFile(`tls.trustfiles[${i}]`, baseDir, f)) } : {}),
  };
}

/** Throws a ConfigError naming `tls` when the files' contents make no TLS context. */
export function checkTlsContext(options: SecureContextOptions): void {
  withTlsContext(() => createSecureContext(options));
}

/**
 * What `make` builds from the files' options (it makes their TLS context: a TLS server does);
 * a ConfigError naming `tls` when their contents make none.
 */
export function withTlsContext<T>(make: () => T): T {
  try {
    return make();
  } catch (err) {
    // OpenSSL's word on PEM text that is no certificate or key, or a key that is not the certificate's.
    throw new ConfigError('CONFIG_BAD_FIELD', `tls: the certificate and key make no TLS context: ${(err as Error).message}`);
  }
}
