#!/usr/bin/env bash
# The browser the e2e tests drive: Debian's chromium (playwright-core, an npm dev dependency,
# drives it). Installs it once; does nothing when /usr/bin/chromium is already there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
exec "$(dirname "$0")/apt-install.sh" chromium
