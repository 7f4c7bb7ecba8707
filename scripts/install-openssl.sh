#!/usr/bin/env bash
# The https listener tests make self-signed certificates with OpenSSL's command line (Debian's
# openssl). Installs it once; does nothing when openssl is already there.
set -euo pipefail
if command -v openssl >/dev/null; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends openssl
