#!/usr/bin/env bash
# The chaos tests run nodes in network namespaces joined by veth pairs and lose packets with
# policy rules, all through iproute2's `ip` (Debian's iproute2). Installs it once; does nothing
# when `ip` is already there. The namespaces themselves need root (CAP_NET_ADMIN).
set -euo pipefail
if command -v ip >/dev/null; then exit 0; fi
exec "$(dirname "$0")/apt-install.sh" iproute2
