// Headless Debian chromium driven by playwright-core for the e2e tests (installed by
// scripts/install-browser.sh, which `make test` runs first).
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Flags for a machine without internet: no background connections (they would be refused, many
 * at a time), no GPU, no sandbox (tests may run as root).
 */
const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}
