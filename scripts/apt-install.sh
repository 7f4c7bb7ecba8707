#!/usr/bin/env bash
# Installs Debian packages for the test tools (scripts/install-*.sh): non-interactive, through
# sudo unless already root.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "$@"
