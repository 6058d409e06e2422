#!/usr/bin/env bash
# Installs what the tests need beyond npm: Debian's Chromium (browser tests drive it with
# playwright-core; npm cannot download browsers here). Does nothing when it is already there.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
chromium --version
