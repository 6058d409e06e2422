#!/usr/bin/env bash
# Installs what the tests need beyond npm, from Debian's packages: Chromium (browser tests drive
# it with playwright-core; npm cannot download browsers here), nginx with its brotli static
# module (the static-host tests), and rsync and zip (the tools a user copies the output with).
# Does nothing when they are already there.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v nginx >/dev/null 2>&1 || missing+=(nginx)
[ -f /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || missing+=(libnginx-mod-http-brotli-static)
for tool in rsync zip unzip; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
chromium --version
nginx -v
