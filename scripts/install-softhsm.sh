#!/usr/bin/env bash
# The PKCS#11 device the key-store tests use: Debian's SoftHSM v2 (a software token behind the
# real PKCS#11 interface, loaded through pkcs11js). Installs it once; does nothing when
# softhsm2-util is already there.
set -euo pipefail
if command -v softhsm2-util >/dev/null; then exit 0; fi
exec "$(dirname "$0")/apt-install.sh" softhsm2
