import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:tls';
import { ConfigError } from '../config/errors.js';
import type { TlsSpec } from '../config/server-config.js';
import { resolveInNodeDir } from './node-dir-paths.js';

// The server of an https listener, from the configuration's `tls` files, read at start (TLS
// changes take effect at the next start, http.md §6). The configuration refuses https without a
// certificate and a key; what only the files can tell is refused here, naming the field.

function readTlsFile(field: string, baseDir: string, path: string): Buffer {
  const file = resolveInNodeDir(baseDir, path);
  try {
    return readFileSync(file);
  } catch (err) {
    throw new ConfigError('CONFIG_BAD_FIELD', `${field}: cannot read ${file}: ${(err as Error).message}`);
  }
}

export function createHttpsServer(baseDir: string, tls: TlsSpec): Server {
  const options = {
    ALPNProtocols: ['http/1.1'],
    cert: readTlsFile('tls.certificate', baseDir, tls.certificate!),
    key: readTlsFile('tls.key', baseDir, tls.key!),
    ...(tls.trustfiles?.length ? { ca: tls.trustfiles.map((f, i) => readTlsFile(`tls.trustfiles[${i}]`, baseDir, f)) } : {}),
  };
  try {
    return createServer(options);
  } catch (err) {
    // OpenSSL's word on PEM text that is no certificate or key, or a key that is not the certificate's.
    throw new ConfigError('CONFIG_BAD_FIELD', `tls: the certificate and key make no TLS context: ${(err as Error).message}`);
  }
}
