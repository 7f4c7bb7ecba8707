#!/usr/bin/env bash
# The https listener tests make self-signed certificates with OpenSSL's command line (Debian's
# openssl). Installs it once; does nothing when openssl is already there.
set -euo pipefail
if command -v openssl >/dev/null; then exit 0; fi
exec "$(dirname "$0")/apt-install.sh" openssl
