// SoftHSM v2 tokens for the tests that need a real PKCS#11 device (scripts/install-softhsm.sh
// installs it): a token store of one token, and the configuration file that points at it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where Debian's softhsm2 puts its PKCS#11 module. */
export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';

/**
 * A fresh SoftHSM token store in `dir` holding one token; the path of its configuration file,
 * which the module reads from SOFTHSM2_CONF when it initializes.
 */
export function softHsmToken(dir: string, label: string, pin: string, soPin: string): string {
  const tokens = join(dir, 'tokens');
  const config = join(dir, 'softhsm2.conf');
  mkdirSync(tokens, { recursive: true });
  writeFileSync(config, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  try {
    execFileSync('softhsm2-util', ['--init-token', '--free', '--label', label, '--pin', pin, '--so-pin', soPin], { stdio: 'pipe', env: { ...process.env, SOFTHSM2_CONF: config } });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('softhsm2 is not installed (softhsm2-util not found): run scripts/install-softhsm.sh');
    }
    throw err;
  }
  return config;
}
