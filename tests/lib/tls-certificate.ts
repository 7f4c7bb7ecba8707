// A self-signed TLS certificate for tests of https listeners, made by OpenSSL's command line
// (`make test` installs it: scripts/install-openssl.sh).
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TlsFiles {
  readonly certificate: string;
  readonly key: string;
  /** The certificate's PEM text (a client's only trusted CA). */
  readonly pem: string;
  /** SHA-256 fingerprint as `getPeerCertificate().fingerprint256` gives it. */
  readonly fingerprint256: string;
}

/**
 * Writes `<dir>/<name>.crt` and `<dir>/<name>.key` (or the files `files` names): a P-256
 * certificate for `host` (the dev hosts by default) and its subdomains and 127.0.0.1, valid for a day.
 */
export function makeSelfSignedCertificate(
  dir: string, name = 'node', host = 'tsibase.localhost', files = { certificate: `${name}.crt`, key: `${name}.key` },
): TlsFiles {
  const certificate = join(dir, files.certificate);
  const key = join(dir, files.key);
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1',
    '-keyout', key, '-out', certificate, '-subj', `/CN=${host}`,
    '-addext', `subjectAltName=DNS:${host},DNS:*.${host},IP:127.0.0.1`,
  ], { stdio: 'pipe' });
  const pem = readFileSync(certificate, 'utf8');
  return { certificate, key, pem, fingerprint256: new X509Certificate(pem).fingerprint256 };
}
